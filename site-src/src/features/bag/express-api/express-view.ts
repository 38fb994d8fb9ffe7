// What every express checkout call answers (the totals the wallet sheet shows, or the order), and
// the path of one express checkout's steps.

export interface ShippingOption {
  id: string;
  label: string;
  detail: string;
  amount_minor: number;
}

export interface ExpressTotals {
  checkout_id: string;
  currency: string;
  items_minor: number;
  shipping_minor: number;
  total_minor: number;
  merchant_label: string;
  country_code: string;
  shipping_options: ShippingOption[];
  shipping_option_id: string | null;
}

export interface ExpressOrder {
  order_id: string;
  order_number: string;
  checkout_id: string;
  confirmation_path: string;
}

/** The path of one step of the express checkout `checkoutId` ('' before it started), escaped. */
export const expressStepPath = (checkoutId: string, step: string): string => `/checkout/express/${encodeURIComponent(checkoutId)}/${step}`;
