// The bag's Apple Pay-style express button (button type check-out).
// Lazily loaded by BagContents only when the API says express checkout is configured, and drawn
// only when the browser's wallet can pay; the sheet and its sequence are in express-checkout.ts.
import { useEffect, useState, type ReactElement } from 'react';
import { keepCart } from './cart';
import { beginExpressCheckout, expressCheckoutShown } from './express-checkout';
import { notify } from '../../lib/notifications';
import type { Cart } from '../../lib/store';

export default function ExpressCheckoutButton({ cart, prefix, disabled }: { cart: Cart; prefix: string; disabled: boolean }): ReactElement | null {
  // The wallet is a browser feature: known only after mount.
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(expressCheckoutShown(cart)), [cart]);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="apple-pay-button bag__express"
      lang="en"
      aria-label="Check out with Apple Pay"
      disabled={disabled}
      onClick={() =>
        beginExpressCheckout(cart, {
          prefix,
          navigate: (path) => window.location.assign(path),
          // The API closed the cart with the order: the bag (and its badge) is empty now.
          ordered: () => keepCart(null),
          report: (text) => notify(text, { tone: 'error' }),
        })
      }
    >
      <span className="apple-pay-button__text">Check out with Apple Pay</span>
    </button>
  );
}
