// GET /orders/{checkoutId}/{orderId}: the order a confirmation page shows, with its confirmation
// extras (email, addresses, the guest-account offer, purchase tracking rows).
import { api } from '../../../lib/api';
import type { Order } from '../../../lib/orders';

export function getOrder(checkoutId: string, orderId: string): Promise<Order> {
  return api<Order>('GET', `/orders/${checkoutId}/${orderId}`);
}
