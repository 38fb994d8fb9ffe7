// POST /checkout/express/{id}/merchant-session: the wallet's merchant session, asked of the payment
// provider for the sheet's validation URL; the answer goes to the sheet as it is.
import { api } from '../../../lib/api';
import { expressStepPath } from './express-view';

export function postMerchantSession(checkoutId: string, validationUrl: string): Promise<unknown> {
  return api<unknown>('POST', expressStepPath(checkoutId, 'merchant-session'), { validation_url: validationUrl });
}
