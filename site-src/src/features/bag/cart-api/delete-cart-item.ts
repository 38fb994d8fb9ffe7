// DELETE /cart/items/{id}: removes a line; the answer is the cart without it.
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export function deleteCartItem(itemId: string): Promise<Cart> {
  return api<Cart>('DELETE', `/cart/items/${encodeURIComponent(itemId)}`);
}
