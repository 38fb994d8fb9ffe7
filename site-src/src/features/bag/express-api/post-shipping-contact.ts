// POST /checkout/express/{id}/shipping-contact: the sheet's shipping contact (as much of the address
// as the wallet shares before payment); the answer is the totals with that country's shipping options.
import { api } from '../../../lib/api';
import { expressStepPath, type ExpressTotals } from './express-view';

export interface ShippingContact {
  country_code: string;
  postal_code: string | null;
  locality: string | null;
  administrative_area: string | null;
}

export function postShippingContact(checkoutId: string, contact: ShippingContact): Promise<ExpressTotals> {
  return api<ExpressTotals>('POST', expressStepPath(checkoutId, 'shipping-contact'), contact);
}
