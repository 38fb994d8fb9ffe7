// GET /wishlists: the signed-in customer's wishlists.
import { api } from '../../../lib/api';
import type { ApiWishlist } from './wishlist-view';

export function getWishlists(): Promise<{ data: ApiWishlist[] }> {
  return api<{ data: ApiWishlist[] }>('GET', '/wishlists');
}
