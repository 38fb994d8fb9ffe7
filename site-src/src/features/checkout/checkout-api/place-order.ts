// POST /checkout/{id}/orders: Place order, sent with an Idempotency-Key so a repeat of the same
// attempt returns the same order instead of charging twice. 201 confirmed, 202 pending a redirect;
// 402 / 409 come back as ApiError.
import { api } from '../../../lib/api';
import { checkoutPath } from './checkout-view';
import type { PaymentMethodType } from './get-payment-methods';

export interface OrderPayment {
  method: PaymentMethodType;
  token?: string;
}

export interface ConfirmedOrder {
  status: 'Confirmed';
  order_id: string;
  order_number: string;
  checkout_id: string;
  /** Market-prefixed: the page to go to. */
  confirmation_path: string;
}

export interface PendingOrder {
  status: 'Pending';
  order_id: string;
  /** 3-D Secure, PayPal, Klarna: the browser goes to `url`, which comes back to /checkout/return. */
  action: { type: 'redirect'; url: string };
}

export type PlacedOrder = ConfirmedOrder | PendingOrder;

export function placeOrder(id: string, payment: OrderPayment, idempotencyKey: string): Promise<PlacedOrder> {
  return api<PlacedOrder>('POST', `${checkoutPath(id)}/orders`, { payment }, undefined, { 'Idempotency-Key': idempotencyKey });
}
