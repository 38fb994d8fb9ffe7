// The frame of every checkout step: POST /checkout first (create or resume, the bag re-read for
// stock), then either hand over to the step the API says comes first, away when there is nothing to
// buy (the route guard: home without a cart, the bag when it is empty), or show the step beside the
// order summary.
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { FormError } from '../../components/Field';
import { cartHint } from '../bag/cart';
import type { Checkout, Step } from './checkout-api/checkout-view';
import { startCheckout } from './checkout-api/start-checkout';
import { CheckoutSummary } from './checkout-summary';
import { StockNotices } from './stock-notices';
import { bagPath, messageOf, pathWithoutCart, redirect, redirectFor, stepPath } from './steps';

export interface StepProps {
  view: Checkout;
  /** Every checkout call answers the whole view: the step replaces it with each answer. */
  setView(view: Checkout): void;
  prefix: string;
}

export function CheckoutStep({ step, prefix, children }: { step: Step; prefix: string; children(props: StepProps): ReactNode }): ReactElement {
  const [view, setView] = useState<Checkout | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    let live = true;
    // No cart, or an empty one, as far as this browser knows (a visitor who opened a step's link,
    // or came back after the order): the route guard, with no refused call to the API.
    const hint = cartHint();
    if (hint !== 'lines') {
      redirect(hint === 'none' ? `${prefix}/` : bagPath(prefix, 'empty'));
      return;
    }
    startCheckout()
      .then((answer) => {
        if (!live) return;
        const target = redirectFor(answer, step);
        if (target !== null) redirect(stepPath(prefix, target));
        else setView(answer);
      })
      .catch((error: unknown) => {
        if (!live) return;
        const away = pathWithoutCart(prefix, error);
        if (away !== null) redirect(away);
        else setFailure(messageOf(error));
      });
    return () => {
      live = false;
    };
  }, [step, prefix, tries]);
  useEffect(() => {
    // Back/forward may restore the page from the browser's cache as it was left (a button still
    // busy, an old view): read it again, as a reload would (the draft keeps what was typed).
    const restored = (event: PageTransitionEvent): void => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  if (failure !== null) {
    return (
      <div className="checkout__failure">
        <FormError message={failure} />
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            setFailure(null);
            setTries(tries + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  // Also shown while a redirect is on its way, so nothing of the wrong step flashes up.
  if (view === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="checkout" data-checkout-step={step}>
      <div className="checkout__main">
        <StockNotices lines={view.lines} prefix={prefix} />
        {children({ view, setView, prefix })}
      </div>
      <CheckoutSummary view={view} />
    </div>
  );
}
