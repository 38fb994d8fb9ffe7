// PUT /cart/items/{id}: sets a line's quantity (409 insufficient_stock when more than is left).
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export function putCartItem(itemId: string, quantity: number | null): Promise<Cart> {
  return api<Cart>('PUT', `/cart/items/${encodeURIComponent(itemId)}`, { quantity });
}
