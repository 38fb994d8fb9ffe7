// The stock copy of the bag and the checkout (low stock, quantity reduced, sold out, stock
// exceeded), in one place so the bag's lines and the checkout's summary say the same thing in the
// same words.

export const STOCK_EXCEEDED = 'The selected quantity exceeds available stock';
export const SOLD_OUT = 'Sold Out';
export const LOW_STOCK = 'There are less than 5 of these left';
export const REMOVE_SOLD_OUT = 'Sold-out items must be removed from your bag before checkout.';

export type LineStockState = 'ok' | 'low_stock' | 'quantity_reduced' | 'sold_out';

/** A line's stock mark; null when it has none. `previous`: what the bag held before a reduction. */
export function lineStockText(state: LineStockState, quantity: number, previous: number | null): string | null {
  switch (state) {
    case 'sold_out':
      return SOLD_OUT;
    case 'low_stock':
      return LOW_STOCK;
    case 'quantity_reduced':
      return `Quantity reduced from ${previous ?? '?'} to ${quantity}`;
    default:
      return null;
  }
}

/**
 * The bag line's state: sold out first (it must leave the bag), then a reduction the bag made to
 * what is left, then low stock.
 */
export function bagLineState(line: { sold_out: boolean; low_stock: boolean }, reducedFrom: number | undefined): LineStockState {
  if (line.sold_out) return 'sold_out';
  if (reducedFrom !== undefined) return 'quantity_reduced';
  return line.low_stock ? 'low_stock' : 'ok';
}
