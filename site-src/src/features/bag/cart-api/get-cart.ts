// GET /cart: the shopper's cart, with prices, totals and stock computed by the server (404: none).
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export function getCart(): Promise<Cart> {
  return api<Cart>('GET', '/cart');
}
