// The Checkout object every checkout call answers (docs/checkout.md "The checkout view").
// Amounts are decimal major units computed by the server; the browser never sends one.
import type { AddressCountry, AddressFields } from '../../../lib/address';
import type { CartOption } from '../../../lib/store';

/** The steps in order; `next_step` names the first one not yet done. */
export const STEPS = ['identity', 'delivery', 'billing', 'payment'] as const;
export type Step = (typeof STEPS)[number];

export type StockState = 'ok' | 'low_stock' | 'quantity_reduced' | 'sold_out';

export interface CheckoutLine {
  id: string;
  product_id: number;
  variant_id: number;
  sku: string;
  name: string;
  url: string;
  image_url: string | null;
  is_gift_card: boolean;
  quantity: number;
  list_price: number;
  sale_price: number;
  extended_sale_price: number;
  discount_amount: number;
  options: CartOption[];
  available_to_sell: number | null;
  stock_state: StockState;
  /** Set when the line was reduced to what is left (`quantity_reduced`): what the bag held. */
  previous_quantity: number | null;
}

export interface ShippingOption {
  id: string;
  label: string;
  detail: string;
  amount: number;
}

export interface Consignment {
  id: string;
  address: AddressFields;
  shipping_options: ShippingOption[];
  shipping_option_id: string | null;
}

/**
 * A country the market's checkout delivers to. The contract does not say whether `states` are
 * names or `{code, name}` pairs, so both are read (see `stateChoices`).
 */
export interface Country extends AddressCountry {
  states: (string | { code: string; name: string })[];
  postal_code_label: string;
}

export interface Checkout {
  id: string;
  market: string;
  currency: string;
  signed_in: boolean;
  email: string | null;
  lines: CheckoutLine[];
  consignment: Consignment | null;
  billing: { same_as_delivery: boolean; address: AddressFields | null } | null;
  totals: { subtotal: number; discount: number; shipping: number | null; total: number };
  countries: Country[];
  next_step: Step;
  can_continue: boolean;
  pending_order_id: string | null;
}

/** The path segment of a checkout: its id, escaped for the URL. */
export const checkoutPath = (id: string): string => `/checkout/${encodeURIComponent(id)}`;
