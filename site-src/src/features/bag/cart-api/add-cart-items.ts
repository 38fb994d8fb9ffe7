// POST /cart/items: adds lines to the cart (409 insufficient_stock, 404 cart_not_found without one).
import { api } from '../../../lib/api';
import type { Cart } from '../../../lib/store';

export interface OptionSelection {
  option_id: number;
  option_value: number | string;
}

/** One line to add: a product's variant, how many, and the options the shopper chose. */
export interface NewLine {
  product_id: number;
  variant_id: number;
  quantity: number;
  option_selections?: OptionSelection[];
}

export function addCartItems(lines: NewLine[]): Promise<Cart> {
  return api<Cart>('POST', '/cart/items', { line_items: lines });
}
