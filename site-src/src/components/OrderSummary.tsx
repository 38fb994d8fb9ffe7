// One order: number, date, status, its lines and totals — the order confirmation and each entry of
// the account's order history.
import type { ReactElement } from 'react';
import { formatMoney } from '../lib/money';
import { optionLabel } from '../lib/line-options';
import { placedOn, type Order } from '../lib/orders';

export function OrderSummary({ order, heading }: { order: Order; heading: 'h2' | 'h3' }): ReactElement {
  const Heading = heading;
  const money = (amount: number): string => formatMoney(amount, order.currency);
  const placed = placedOn(order);
  return (
    <article className="order" data-order-number={order.number}>
      <Heading className="account__title">Order number {order.number}</Heading>
      <p>
        Placed on {placed} · {order.status}
      </p>
      <ul className="order__lines">
        {order.line_items.map((line) => (
          <li key={`${line.variant_id}-${line.sku}`} className="order__line">
            <span>
              {line.name}
              {line.options.length > 0 && ` (${line.options.map((o) => `${optionLabel(o.name)}: ${o.value}`).join(', ')})`} × {line.quantity}
            </span>
            <span>{money(line.extended_sale_price)}</span>
          </li>
        ))}
      </ul>
      <p className="order__sum">
        <span>Subtotal</span> <span>{money(order.subtotal)}</span>
      </p>
      {order.discount_amount > 0 && (
        <p className="order__sum">
          <span>Discount</span> <span>-{money(order.discount_amount)}</span>
        </p>
      )}
      <p className="order__sum">
        <span>{order.shipping_method}</span> <span>{money(order.shipping_amount)}</span>
      </p>
      <p className="order__sum order__sum--total">
        <span>Total</span> <span data-order-total>{money(order.total)}</span>
      </p>
    </article>
  );
}
