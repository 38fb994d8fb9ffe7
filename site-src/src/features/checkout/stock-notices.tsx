// Stock found when the step re-read the bag (§4 stock copy): sold-out lines must leave the bag
// before checkout, reduced lines say from what to what; per line, the summary marks each state.
import type { ReactElement } from 'react';
import type { CheckoutLine } from './checkout-api/checkout-view';

export function StockNotices({ lines, prefix }: { lines: readonly CheckoutLine[]; prefix: string }): ReactElement | null {
  const soldOut = lines.filter((l) => l.stock_state === 'sold_out');
  const reduced = lines.filter((l) => l.stock_state === 'quantity_reduced');
  if (soldOut.length === 0 && reduced.length === 0) return null;
  return (
    <div className="checkout__notices">
      {soldOut.length > 0 && (
        <div className="notice notice--error" role="alert">
          {soldOut.map((line) => (
            <p key={line.id}>{line.name}: Sold Out. Sold-out items must be removed from your bag before checkout.</p>
          ))}
          <a href={`${prefix}/bag`}>Go to your bag</a>
        </div>
      )}
      {reduced.length > 0 && (
        <div className="notice" role="status">
          {reduced.map((line) => (
            <p key={line.id}>
              We reduced the quantity of {line.name} from {line.previous_quantity ?? '?'} to {line.quantity}: that is all we have left.
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

/** The line's own stock mark in the summary (§2 bag copy). */
export function LineStock({ line }: { line: CheckoutLine }): ReactElement | null {
  switch (line.stock_state) {
    case 'sold_out':
      return <p className="bag-line__stock">Sold Out</p>;
    case 'low_stock':
      return <p className="bag-line__stock">There are less than 5 of these left</p>;
    case 'quantity_reduced':
      return (
        <p className="bag-line__stock">
          Quantity reduced from {line.previous_quantity ?? '?'} to {line.quantity}
        </p>
      );
    default:
      return null;
  }
}
