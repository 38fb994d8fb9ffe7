// POST /checkout/{id}/apple-pay-session: Apple Pay's merchant session for the sheet's validation
// URL, asked of the payment provider; the answer goes to the sheet as it is.
import { api } from '../../../lib/api';
import { checkoutPath } from './checkout-view';

export function postApplePaySession(checkoutId: string, validationUrl: string): Promise<unknown> {
  return api<unknown>('POST', `${checkoutPath(checkoutId)}/apple-pay-session`, { validation_url: validationUrl });
}
