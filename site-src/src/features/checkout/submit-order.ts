// What Place order and the payment return do with the API's answers: where the shopper goes next,
// and when the attempt (its Idempotency-Key) ends. Kept apart from the screens so each answer's
// handling is one place, and testable without a page.
import { ApiError } from '../../lib/api';
import { keepCart } from '../bag/cart';
import { attemptKey, endAttempt, readPending, rememberDeclined, rememberPending } from './attempt';
import type { Step } from './checkout-api/checkout-view';
import { getCheckout } from './checkout-api/get-checkout';
import { placeOrder, type ConfirmedOrder, type OrderPayment } from './checkout-api/place-order';
import { postPaymentDetails } from './checkout-api/post-payment-details';
import { isEmptyBag, isNoCart, startCheckout } from './checkout-api/start-checkout';
import { clearDraft } from './draft';
import { bagPath, messageOf, navigate, redirect, stepPath } from './steps';

export type OrderOutcome = { kind: 'left' } | { kind: 'failed'; message: string };

export interface OrderDeps {
  navigate(url: string): void;
  wait(ms: number): Promise<void>;
  /** The order is paid, just before its confirmation page (a wallet sheet closes with success). */
  confirmed?(): void;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
export const PAGE: OrderDeps = { navigate, wait };
/** The return page is only passed through: it leaves the history as it goes. */
const RETURN_PAGE: OrderDeps = { navigate: redirect, wait };

/** 409 payment_in_progress: the first request with this key is still paying; ask again shortly. */
export const IN_PROGRESS_RETRY_MS = 1000;
const IN_PROGRESS_TRIES = 30;

export const NOT_COMPLETED = 'Your payment was not completed. Please try again or choose another payment method.';
export const STILL_PROCESSING = 'Your payment is still being processed. Please wait a moment, then press Place order again.';

/** A step named by checkout_incomplete's fields, when the view cannot be re-read. */
function stepOfFields(fields: Record<string, string>): Step {
  if ('email' in fields) return 'identity';
  if ('consignment' in fields || 'shipping_option_id' in fields) return 'delivery';
  return 'billing';
}

function confirmed(checkoutId: string, order: ConfirmedOrder, deps: OrderDeps): OrderOutcome {
  endAttempt(checkoutId);
  rememberPending(null);
  rememberDeclined(null);
  clearDraft();
  // The order closed the cart: the next pages must not ask the API for it (a 404).
  keepCart(null);
  deps.confirmed?.();
  deps.navigate(order.confirmation_path);
  return { kind: 'left' };
}

/**
 * Place order with this attempt's key. A network error or a 5xx keeps the key (the request may
 * have been charged: the same key again answers that order); every definite refusal ends it.
 */
export async function submitOrder(checkoutId: string, prefix: string, payment: OrderPayment, deps: OrderDeps = PAGE): Promise<OrderOutcome> {
  const key = attemptKey(checkoutId);
  for (let tries = 1; ; tries += 1) {
    try {
      const answer = await placeOrder(checkoutId, payment, key);
      if (answer.status === 'Pending') {
        // The key stays: back from the redirect page without paying, Place order answers this order.
        rememberPending({ checkoutId, orderId: answer.order_id });
        deps.navigate(answer.action.url);
        return { kind: 'left' };
      }
      return confirmed(checkoutId, answer, deps);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'payment_in_progress') {
        if (tries >= IN_PROGRESS_TRIES) return { kind: 'failed', message: STILL_PROCESSING };
        await deps.wait(IN_PROGRESS_RETRY_MS);
        continue;
      }
      if (error.status === 0 || error.status >= 500) return { kind: 'failed', message: error.message };
      endAttempt(checkoutId);
      if (error.code === 'insufficient_stock') {
        deps.navigate(bagPath(prefix, 'stock'));
        return { kind: 'left' };
      }
      if (error.code === 'checkout_incomplete') {
        const view = await getCheckout(checkoutId).catch(() => null);
        // A line sold out meanwhile is the real reason (a shipping option that needs every unit in
        // the main warehouse goes with it): the shopper must change the bag, not the delivery.
        if (view?.lines.some((line) => line.stock_state === 'sold_out') === true) {
          deps.navigate(bagPath(prefix, 'stock'));
          return { kind: 'left' };
        }
        const step = view !== null && view.next_step !== 'payment' ? view.next_step : stepOfFields(error.fields);
        deps.navigate(stepPath(prefix, step));
        return { kind: 'left' };
      }
      // 402 payment_failed: the order was cancelled; another card is a new attempt.
      return { kind: 'failed', message: error.message };
    }
  }
}

/**
 * /checkout/return: finish the payment a redirect (3-D Secure, PayPal, Klarna) came back for (the
 * API asks the provider how it went), then the confirmation; a refusal goes back to the payment step with its reason.
 */
export async function finishRedirect(prefix: string, search: string, deps: OrderDeps = RETURN_PAGE): Promise<OrderOutcome> {
  const query = new URLSearchParams(search);
  const orderId = query.get('order_id');
  const pending = readPending();
  const back = (message: string, checkoutId: string | null): OrderOutcome => {
    if (checkoutId !== null) endAttempt(checkoutId);
    rememberPending(null);
    rememberDeclined(message);
    deps.navigate(`${stepPath(prefix, 'payment')}?notice=declined`);
    return { kind: 'left' };
  };
  if (orderId === null || !/^[0-9a-f]{32}$/.test(orderId)) return back(NOT_COMPLETED, pending?.checkoutId ?? null);
  // The return URL names the order only; its checkout is this tab's pending one, else the open one.
  let checkoutId = pending !== null && pending.orderId === orderId ? pending.checkoutId : null;
  try {
    checkoutId ??= (await startCheckout()).id;
    return confirmed(checkoutId, await postPaymentDetails(checkoutId, orderId), deps);
  } catch (error) {
    if (isNoCart(error) || isEmptyBag(error)) return { kind: 'failed', message: NOT_COMPLETED };
    if (error instanceof ApiError && error.status === 402) return back(error.message, checkoutId);
    return { kind: 'failed', message: messageOf(error) };
  }
}
