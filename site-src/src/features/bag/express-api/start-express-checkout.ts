// POST /checkout/express: starts an express checkout from the bag (the wallet sheet's click): the API
// reloads the cart and checks stock, and answers the totals (409 insufficient_stock as ApiError).
import { api } from '../../../lib/api';
import type { ExpressTotals } from './express-view';

export function startExpressCheckout(): Promise<ExpressTotals> {
  return api<ExpressTotals>('POST', '/checkout/express', {});
}
