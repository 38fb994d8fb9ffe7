// The order summary beside every step (below it on phones): lines with their options, quantity,
// price and stock, then subtotal, discount, shipping and total — all as the API computed them.
import type { ReactElement } from 'react';
import { formatMoney } from '../../lib/money';
import { lineAttributes } from '../../lib/line-options';
import type { Checkout } from './checkout-api/checkout-view';
import { LineImage } from '../../components/LineImage';
import { LineStock } from './stock-notices';

export function CheckoutSummary({ view }: { view: Checkout }): ReactElement {
  const money = (amount: number): string => formatMoney(amount, view.currency);
  const { subtotal, discount, shipping, total } = view.totals;
  return (
    // A region, not <aside>: a complementary landmark may not sit inside <main> (axe best practice).
    <section className="checkout__summary" aria-labelledby="checkout-summary-title">
      <h2 className="checkout__title" id="checkout-summary-title">
        Order summary
      </h2>
      <ul className="bag__lines">
        {view.lines.map((line) => (
          <li key={line.id} className="bag-line" data-line-id={line.id}>
            <LineImage src={line.image_url} />
            <div>
              <p className="bag-line__name">{line.name}</p>
              <dl className="bag-line__attrs">
                {[...lineAttributes(line), { label: 'Qty', value: String(line.quantity) }].map((attr) => (
                  <div key={attr.label}>
                    <dt>{attr.label}:</dt> <dd>{attr.value}</dd>
                  </div>
                ))}
              </dl>
              <p className="bag-line__price">{money(line.extended_sale_price)}</p>
              <LineStock line={line} />
            </div>
          </li>
        ))}
      </ul>
      <dl className="checkout__totals">
        <div className="order__sum">
          <dt>Subtotal</dt>
          <dd>{money(subtotal)}</dd>
        </div>
        {discount > 0 && (
          <div className="order__sum">
            <dt>Discount</dt>
            <dd>-{money(discount)}</dd>
          </div>
        )}
        {shipping !== null && (
          <div className="order__sum">
            <dt>Shipping</dt>
            <dd>{money(shipping)}</dd>
          </div>
        )}
        <div className="order__sum order__sum--total">
          <dt>Total</dt>
          <dd data-checkout-total>{money(total)}</dd>
        </div>
      </dl>
    </section>
  );
}
