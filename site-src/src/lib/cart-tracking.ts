// The cart events' tracking rows (spec: productId = style code + colour with underscores, sku,
// quantity, unitPrice, currency), the same rows the API gives an order's purchase event. Loaded
// with the first cart event, so the pages' own JavaScript does not carry it.
import { track } from './analytics';
import type { Cart, LineItem } from './store';

export interface CartRow {
  productId: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  currency: string;
}

/** The option that names the colourway: the API's `tracking_product_id` reads the same three. */
const COLOUR_OPTIONS = ['Color', 'Colour', 'Design'];

/** `SD1001_Emerald_Green`: the SKU's first six characters (the style code) and the colour. */
export function trackingProductId(line: Pick<LineItem, 'sku' | 'options'>): string {
  const style = line.sku.slice(0, 6);
  const colour = line.options.find((option) => COLOUR_OPTIONS.includes(option.name));
  return colour === undefined ? style : `${style}_${colour.value.replaceAll(' ', '_')}`;
}

export function cartRows(lines: readonly LineItem[], currency: string): CartRow[] {
  return lines.map((line) => ({
    productId: trackingProductId(line),
    sku: line.sku,
    quantity: line.quantity,
    unitPrice: line.sale_price,
    currency,
  }));
}

/** add_to_cart, remove_from_cart (the lines concerned) and view_cart (the whole bag). */
export function trackCartEvent(event: string, lines: readonly LineItem[], cart: Cart | null): void {
  track(event, { ecommerce: { currency: cart?.currency.code ?? '', items: cartRows(lines, cart?.currency.code ?? '') } });
}
