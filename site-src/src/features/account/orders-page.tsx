// Order history (/MyAccount/OrderHistory): the orders of the last 12 months, newest first, each
// with its number, date, status and total; each opens its details (`?order=<id>`, so the view has
// its own address and Back returns to the list).
import { useEffect, useState, type ReactElement } from 'react';
import { OrderSummary } from '../../components/OrderSummary';
import { formatMoney } from '../../lib/money';
import { placedOn, type Order } from '../../lib/orders';
import { getOrders } from './account-api/get-orders';

/** The orders, or null while loading; an unreadable history shows as empty, with the reason logged. */
export function useOrders(): Order[] | null {
  const [orders, setOrders] = useState<Order[] | null>(null);
  useEffect(() => {
    getOrders()
      .then(setOrders)
      .catch((error: unknown) => {
        console.warn('[account] order history', error);
        setOrders([]);
      });
  }, []);
  return orders;
}

export function OrderRow({ order, prefix }: { order: Order; prefix: string }): ReactElement {
  return (
    <li className="order-row" data-order-number={order.number}>
      <span className="order-row__number">Order number {order.number}</span>
      <span>{placedOn(order)}</span>
      <span className="order-row__status">{order.status}</span>
      <span>{formatMoney(order.total, order.currency)}</span>
      <a className="order-row__open" href={`${prefix}/MyAccount/OrderHistory?order=${encodeURIComponent(order.id)}`}>
        View order<span className="visually-hidden"> {order.number}</span>
      </a>
    </li>
  );
}

export function OrdersPage({ prefix }: { prefix: string }): ReactElement {
  const orders = useOrders();
  const [open] = useState(() => new URLSearchParams(window.location.search).get('order'));
  if (orders === null) return <p aria-busy="true">Loading...</p>;
  if (open !== null) {
    const order = orders.find((o) => o.id === open);
    return (
      <section className="account__section">
        <a href={`${prefix}/MyAccount/OrderHistory`}>Back to order history</a>
        {order === undefined ? <p role="alert">This order could not be found in your order history.</p> : <OrderSummary order={order} heading="h2" />}
      </section>
    );
  }
  return (
    <section className="account__section" aria-labelledby="orders-title">
      <h2 className="account__title" id="orders-title">
        Your orders
      </h2>
      {orders.length === 0 ? (
        <p>You have not placed any orders yet.</p>
      ) : (
        <ul className="order-rows">
          {orders.map((order) => (
            <OrderRow key={order.id} order={order} prefix={prefix} />
          ))}
        </ul>
      )}
    </section>
  );
}
