// Orders as the API answers them (GET /orders/{checkoutId}/{orderId}, GET /customer/orders), and
// reading the order-confirmation path. Amounts are decimal major units computed by the server.
import { api } from './api';
import type { CartOption } from './store';

export interface OrderLine {
  product_id: number;
  variant_id: number;
  sku: string;
  name: string;
  quantity: number;
  list_price: number;
  sale_price: number;
  discount_amount: number;
  extended_sale_price: number;
  options: CartOption[];
}

export interface Order {
  id: string;
  number: string;
  status: string;
  payment_status: string;
  payment_method: string;
  market: string;
  currency: string;
  created_at: number;
  subtotal: number;
  discount_amount: number;
  shipping_amount: number;
  shipping_method: string;
  total: number;
  line_items: OrderLine[];
}

/** `{prefix}/order-confirmation/{checkoutId}/{orderId}` → the two ids, or null. */
export function confirmationIds(pathname: string): { checkoutId: string; orderId: string } | null {
  const match = /\/order-confirmation\/([0-9a-f]{32})\/([0-9a-f]{32})\/?$/.exec(pathname);
  return match === null ? null : { checkoutId: match[1] ?? '', orderId: match[2] ?? '' };
}

export function loadConfirmation(checkoutId: string, orderId: string): Promise<Order> {
  return api<Order>('GET', `/orders/${checkoutId}/${orderId}`);
}

export async function loadOrderHistory(): Promise<Order[]> {
  return (await api<{ orders: Order[] }>('GET', '/customer/orders')).orders;
}
