// DELETE /wishlists/{id}/items/{item}: removes one item; the answer is the wishlist without it.
import { api } from '../../../lib/api';
import { wishlistPath, type ApiWishlist } from './wishlist-view';

export function deleteWishlistItem(id: string, itemId: string): Promise<ApiWishlist> {
  return api<ApiWishlist>('DELETE', `${wishlistPath(id)}/items/${encodeURIComponent(itemId)}`);
}
