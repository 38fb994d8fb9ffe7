// POST /orders/{checkoutId}/{orderId}/account: a guest's account from the order confirmation (the
// checkout's email, its billing address and orders); 409 account_exists when the email has one.
// The confirmation itself (GET /orders/{checkoutId}/{orderId}) is get-order.ts.
import { api } from '../../../lib/api';

export interface OrderAccountRequest {
  title: string;
  password: string;
  first_name?: string;
  last_name?: string;
  preferenceEmail?: boolean;
}

export function createOrderAccount(checkoutId: string, orderId: string, request: OrderAccountRequest): Promise<unknown> {
  return api<unknown>('POST', `/orders/${encodeURIComponent(checkoutId)}/${encodeURIComponent(orderId)}/account`, request);
}
