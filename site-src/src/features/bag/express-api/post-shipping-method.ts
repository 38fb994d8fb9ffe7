// POST /checkout/express/{id}/shipping-method: the shipping option chosen in the sheet; the answer
// is the new totals.
import { api } from '../../../lib/api';
import { expressStepPath, type ExpressTotals } from './express-view';

export function postShippingMethod(checkoutId: string, shippingOptionId: string): Promise<ExpressTotals> {
  return api<ExpressTotals>('POST', expressStepPath(checkoutId, 'shipping-method'), { shipping_option_id: shippingOptionId });
}
