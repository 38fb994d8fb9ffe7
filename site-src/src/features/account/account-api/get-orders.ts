// GET /customer/orders: the signed-in customer's orders of the last 12 months, newest first.
import { api } from '../../../lib/api';
import type { Order } from '../../../lib/orders';

export async function getOrders(): Promise<Order[]> {
  return (await api<{ orders: Order[] }>('GET', '/customer/orders')).orders;
}
