// The wishlist every wishlist call answers, and the path of one wishlist.
export interface ApiWishlist {
  id: string;
  items: { id: string; product_id: number; variant_id: number; name: string | null; options_chosen: boolean }[];
}

/** The path of a wishlist: its id, escaped for the URL. */
export const wishlistPath = (id: string): string => `/wishlists/${encodeURIComponent(id)}`;
