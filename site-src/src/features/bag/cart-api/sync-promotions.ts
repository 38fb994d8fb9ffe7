// POST /cart/promotions: the promotions engine evaluates the cart the API stores, at its own prices.
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export function syncPromotions(): Promise<Cart> {
  return api<Cart>('POST', '/cart/promotions', {});
}
