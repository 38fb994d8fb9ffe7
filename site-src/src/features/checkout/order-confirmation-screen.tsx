// The order-confirmation screen (/order-confirmation/{cartId}/{orderId}; after a wallet express
// payment the checkout id and ?checkoutsource=applepayexpress): the order loaded from the API by
// the two ids in the path — for its owner only, anyone else gets the not-found state — with the
// delivery address and method, the purchase event (once per order), and for guests an account.
import { useEffect, useState, type ReactElement } from 'react';
import { AddressBlock } from '../../components/AddressBlock';
import { ErrorState } from '../../components/NotFoundState';
import { OrderSummary } from '../../components/OrderSummary';
import { GuestAccountOffer } from './guest-account';
import { trackPurchaseOnce } from './purchase-tracking';
import { ApiError } from '../../lib/api';
import { confirmationIds, type Order } from '../../lib/orders';
import { getOrder } from './checkout-api/get-order';

export default function OrderConfirmationScreen({ prefix }: { prefix: string }): ReactElement {
  const [ids] = useState(() => confirmationIds(window.location.pathname));
  const [order, setOrder] = useState<Order | null>(null);
  // The API status that stops the page (404 for an unknown order), or null.
  const [failed, setFailed] = useState<number | null>(null);
  useEffect(() => {
    if (ids === null) {
      setFailed(404);
      return;
    }
    getOrder(ids.checkoutId, ids.orderId)
      .then((loaded) => {
        setOrder(loaded);
        trackPurchaseOnce(loaded);
      })
      // 404: not this browser's or customer's order (or no such order); 503 or no answer: the API
      // is down; anything else an error. Only that state shows.
      .catch((error: unknown) => setFailed(error instanceof ApiError ? error.status : 500));
  }, [ids]);
  if (failed !== null) return <ErrorState prefix={prefix} status={failed} />;
  if (order === null || ids === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="order-confirmation">
      <p className="order-confirmation__thanks">Thank you for your order.</p>
      <OrderSummary order={order} heading="h2" />
      {order.delivery_address != null && (
        <section className="checkout__section" aria-labelledby="confirmation-delivery">
          <h2 className="checkout__title" id="confirmation-delivery">
            Delivery
          </h2>
          <AddressBlock address={order.delivery_address} />
          <p>Delivery method: {order.shipping_method}</p>
        </section>
      )}
      {order.guest_account != null && <GuestAccountOffer guest={order.guest_account} checkoutId={ids.checkoutId} orderId={ids.orderId} prefix={prefix} />}
      <a className="btn btn--primary" href={prefix === '' ? '/' : prefix}>
        Continue shopping
      </a>
    </div>
  );
}
