// The order-confirmation screen (§2 /order-confirmation/{cartId}/{orderId}; after a wallet express
// payment the checkout id and ?checkoutsource=applepayexpress): the order loaded from the API by
// the two ids in the path, and for guests the offer to create an account.
import { useEffect, useState, type ReactElement } from 'react';
import { OrderSummary } from '../components/OrderSummary';
import { isSignedInHint } from '../lib/cookies';
import { confirmationIds, loadConfirmation, type Order } from '../lib/orders';

export default function OrderConfirmationScreen({ prefix }: { prefix: string }): ReactElement {
  const [order, setOrder] = useState<Order | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const ids = confirmationIds(window.location.pathname);
    if (ids === null) {
      setFailed('This page could not be found');
      return;
    }
    loadConfirmation(ids.checkoutId, ids.orderId)
      .then(setOrder)
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
  }, []);
  if (failed !== null) return <p role="alert">{failed}</p>;
  if (order === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="order-confirmation">
      <p>We have received your order.</p>
      <OrderSummary order={order} heading="h2" />
      {!isSignedInHint() && (
        <p>
          <a href={`${prefix}/create-account`}>Create an account</a> to follow your orders.
        </p>
      )}
      <a className="btn btn--primary" href={prefix === '' ? '/' : prefix}>
        Continue shopping
      </a>
    </div>
  );
}
