// POST /checkout/{id}/payment-details: the result a 3-D Secure or redirect payment brought back to
// /checkout/return; 201 as Place order's, or 402 (ApiError).
import { api } from '../../../lib/api';
import { checkoutPath } from './checkout-view';
import type { ConfirmedOrder } from './place-order';

export function postPaymentDetails(id: string, orderId: string): Promise<ConfirmedOrder> {
  return api<ConfirmedOrder>('POST', `${checkoutPath(id)}/payment-details`, { order_id: orderId });
}
