// Stock found when the step re-read the bag (the bag's stock copy): sold-out lines must leave the bag
// before checkout, reduced lines say from what to what; per line, the summary marks each state.
import type { ReactElement } from 'react';
import { lineStockText, REMOVE_SOLD_OUT, SOLD_OUT } from '../../lib/stock-copy';
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
            <p key={line.id}>
              {line.name}: {SOLD_OUT}. {REMOVE_SOLD_OUT}
            </p>
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

/** The line's own stock mark in the summary, worded as the bag's lines are. */
export function LineStock({ line }: { line: CheckoutLine }): ReactElement | null {
  const text = lineStockText(line.stock_state, line.quantity, line.previous_quantity ?? null);
  return text === null ? null : <p className="bag-line__stock">{text}</p>;
}
