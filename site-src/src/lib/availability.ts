// Availability rules of the product page, over live stock from the API. Pure functions
// so the component tests can pin them down; the page never trusts the static HTML for stock.
export interface VariantOptions {
  id: number;
  colour: number | null;
  size: number | null;
  length: number | null;
  purchasable: boolean;
}

/** variant id → available to sell; null = the product does not track stock. Missing = unknown yet. */
export type StockMap = Record<number, number | null>;

export const LOW_STOCK_BELOW = 5;

/** A variant's stock: a number, null (not tracked) or undefined (not known yet). */
export function level(stock: StockMap, id: number): number | null | undefined {
  return id in stock ? stock[id] : undefined;
}

export type StockState = 'unknown' | 'untracked' | 'sold-out' | 'low' | 'in-stock';

/** The stock state of the chosen variant, for the add-to-bag control and its message. */
export function variantStockState(stock: StockMap, variantId: number | null): StockState {
  if (variantId === null) return 'unknown';
  const l = level(stock, variantId);
  if (l === undefined) return 'unknown';
  if (l === null) return 'untracked';
  if (l <= 0) return 'sold-out';
  return l < LOW_STOCK_BELOW ? 'low' : 'in-stock';
}

export interface AddToBagInput {
  loading: boolean;
  needSize: boolean;
  sizeChosen: boolean;
  needLength: boolean;
  lengthChosen: boolean;
  variantId: number | null;
  purchasable: boolean;
  stockState: StockState;
  /** Required modifiers filled and gift-card emails valid. */
  fieldsValid: boolean;
  /** Units of this variant already in the bag (bag + 1 must not exceed stock). */
  inBag: number;
  available: number | null | undefined;
}

/** Add to bag: not loading, offered options chosen, fields valid, in stock, and bag + 1 within stock. */
export function canAddToBag(input: AddToBagInput): boolean {
  if (input.loading) return false;
  if (input.needSize && !input.sizeChosen) return false;
  if (input.needLength && !input.lengthChosen) return false;
  if (input.variantId === null || !input.purchasable) return false;
  if (!input.fieldsValid) return false;
  if (input.stockState === 'unknown' || input.stockState === 'sold-out') return false;
  if (typeof input.available === 'number' && input.inBag + 1 > input.available) return false;
  return true;
}
