// POST /checkout/express/{id}/authorize: the wallet's payment token and contacts; the API places the
// order and takes the payment, and answers the order (409 insufficient_stock as ApiError).
import { api } from '../../../lib/api';
import { expressStepPath, type ExpressOrder } from './express-view';

export interface ExpressAuthorization {
  payment_token: unknown;
  shipping_contact: Record<string, unknown>;
  billing_contact: Record<string, unknown>;
}

export function postAuthorize(checkoutId: string, authorization: ExpressAuthorization): Promise<ExpressOrder> {
  return api<ExpressOrder>('POST', expressStepPath(checkoutId, 'authorize'), authorization);
}
