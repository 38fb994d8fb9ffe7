// PUT /checkout/{id}/email: a guest's email (the shared email rule; 400 names field `email`).
import { api } from '../../../lib/api';
import { checkoutPath, type Checkout } from './checkout-view';

export function putEmail(id: string, email: string): Promise<Checkout> {
  return api<Checkout>('PUT', `${checkoutPath(id)}/email`, { email });
}
