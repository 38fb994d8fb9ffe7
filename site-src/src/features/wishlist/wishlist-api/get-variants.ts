// GET /variants?variant_ids=…: what the wishlist shows of each variant (name, picture, prices,
// options, whether it can be bought), priced in the market's currency.
import { api } from '../../../lib/api';
import type { CartOption } from '../../../lib/store';

export interface VariantSummary {
  product_id: number;
  variant_id: number;
  name: string;
  url: string;
  image_url: string | null;
  sale_price: number;
  list_price: number;
  options: CartOption[];
  purchasable: boolean;
}

export interface Variants {
  currency: string;
  data: VariantSummary[];
}

/** The variants of `variantIds`, comma-separated (the wishlist's items, or one colour's sizes). */
export function getVariants(variantIds: string): Promise<Variants> {
  return api<Variants>('GET', `/variants?variant_ids=${variantIds}`);
}
