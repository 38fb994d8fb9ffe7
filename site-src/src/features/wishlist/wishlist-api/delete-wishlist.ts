// DELETE /wishlists/{id}: deletes a wishlist with its items.
import { api } from '../../../lib/api';
import { wishlistPath } from './wishlist-view';

export async function deleteWishlist(id: string): Promise<void> {
  await api('DELETE', wishlistPath(id));
}
