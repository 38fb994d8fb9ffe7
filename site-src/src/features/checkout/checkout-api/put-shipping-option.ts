// PUT /checkout/{id}/shipping-option: one of the options listed for the delivery address.
import { api } from '../../../lib/api';
import { checkoutPath, type Checkout } from './checkout-view';

export function putShippingOption(id: string, shippingOptionId: string): Promise<Checkout> {
  return api<Checkout>('PUT', `${checkoutPath(id)}/shipping-option`, { shipping_option_id: shippingOptionId });
}
