// Orders as the API answers them (GET /orders/{checkoutId}/{orderId}, GET /customer/orders), and
// reading the order-confirmation path. Amounts are decimal major units computed by the server.
import type { AddressFields } from './address';
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
  /** The confirmation's extras (docs/checkout.md "The order confirmation"); absent in the history. */
  email?: string;
  delivery_address?: AddressFields | null;
  billing_address?: AddressFields | null;
  /** Null when the order belongs to a customer; a guest is offered an account for this email. */
  guest_account?: GuestAccount | null;
  /** The spec's purchase tracking rows, pushed once per order. */
  purchase?: PurchaseRow[];
}

export interface GuestAccount {
  email: string;
  account_exists: boolean;
}

/** A purchase tracking row: `productId` is the style code + `_` + colour with spaces as underscores. */
export interface PurchaseRow {
  purchaseId: string;
  productId: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  currency: string;
}

/** `{prefix}/order-confirmation/{checkoutId}/{orderId}` → the two ids, or null. */
export function confirmationIds(pathname: string): { checkoutId: string; orderId: string } | null {
  const match = /\/order-confirmation\/([0-9a-f]{32})\/([0-9a-f]{32})\/?$/.exec(pathname);
  return match === null ? null : { checkoutId: match[1] ?? '', orderId: match[2] ?? '' };
}

/** The day an order was placed, as the account and the confirmation show it: 5 March 2026. */
export function placedOn(order: Pick<Order, 'created_at'>): string {
  return new Date(order.created_at * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
}
