// Checkout return (/checkout/return?order_id=…): where 3-D Secure, PayPal and
// Klarna come back to; finishes the payment, then the confirmation, or back to payment with why.
import { useEffect, useState, type ReactElement } from 'react';
import { FormError } from '../../components/Field';
import { messageOf, stepPath } from './steps';
import { finishRedirect } from './submit-order';

export default function ReturnScreen({ prefix }: { prefix: string }): ReactElement {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    // The page's session reads the cart (the header's bag) first: once the payment has made the
    // cart an order, that read would answer 404. A session that fails to load does not stop it.
    import('../shell/session')
      .then(({ startSession }) => startSession(prefix))
      .catch(() => undefined)
      .then(() => finishRedirect(prefix, window.location.search))
      .then((outcome) => {
        if (outcome.kind === 'failed') setFailure(outcome.message);
      })
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [prefix]);
  if (failure === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="checkout__failure">
      <FormError message={failure} />
      <a className="btn btn--primary" href={stepPath(prefix, 'payment')}>
        Back to payment
      </a>
    </div>
  );
}
