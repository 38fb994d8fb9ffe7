// POST /wishlists/{id}/items: adds items; the answer is the whole wishlist.
import { api } from '../../../lib/api';
import { wishlistPath, type ApiWishlist } from './wishlist-view';

export function addWishlistItems(id: string, items: { product_id: number; variant_id: number; options_chosen: boolean }[]): Promise<ApiWishlist> {
  return api<ApiWishlist>('POST', `${wishlistPath(id)}/items`, { items });
}
