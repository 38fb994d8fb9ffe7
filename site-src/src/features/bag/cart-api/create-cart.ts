// POST /cart: starts an empty cart and sets its HttpOnly cookie.
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export function createCart(): Promise<Cart> {
  return api<Cart>('POST', '/cart', {});
}
