// POST /wishlists: a new, private, empty wishlist named "My wishlist".
import { api } from '../../../lib/api';
import type { ApiWishlist } from './wishlist-view';

export function createWishlist(): Promise<ApiWishlist> {
  return api<ApiWishlist>('POST', '/wishlists', { name: 'My wishlist', is_public: false, items: [] });
}
