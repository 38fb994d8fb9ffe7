// GET /checkout/{id}: the view re-read without changing anything.
import { api } from '../../../lib/api';
import { checkoutPath, type Checkout } from './checkout-view';

export function getCheckout(id: string): Promise<Checkout> {
  return api<Checkout>('GET', checkoutPath(id));
}
