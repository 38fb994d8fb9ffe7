// Checkout step order and pages: each step is its own static page, so moving on is a page load.
import { ApiError, messageOf } from '../../lib/api';
import { keepCart } from '../bag/cart';
import { STEPS, type Checkout, type Step } from './checkout-api/checkout-view';
import { isEmptyBag, isNoCart } from './checkout-api/start-checkout';

export function stepPath(prefix: string, step: Step): string {
  return step === 'identity' ? `${prefix}/checkout-identity` : `${prefix}/checkout/${step}`;
}

/** Why the shopper was sent back to the bag: its screen says so (`?notice=`). */
export function bagPath(prefix: string, notice: 'empty' | 'stock'): string {
  return `${prefix}/bag?notice=${notice}`;
}

/**
 * The route guard of the checkout's pages: a shopper without a cart (no cart cookie, or the order
 * closed it) goes to the market's home page; one whose bag is empty goes to the bag, which says so.
 * Null when the API's refusal is about something else. A cart the API no longer knows is forgotten
 * here too, so the header stops counting it.
 */
export function pathWithoutCart(prefix: string, error: unknown): string | null {
  if (isNoCart(error)) {
    keepCart(null);
    return `${prefix}/`;
  }
  return isEmptyBag(error) ? bagPath(prefix, 'empty') : null;
}

/**
 * The step this page must hand over to, or null to stay: a signed-in shopper has no identity step
 * (the API decides, by `signed_in`), and a step whose earlier step is not done sends the shopper
 * to that step (`next_step`). A later `next_step` is fine: the shopper came back to change things.
 */
export function redirectFor(view: Checkout, step: Step): Step | null {
  if (step === 'identity') return view.signed_in ? 'delivery' : null;
  return STEPS.indexOf(view.next_step) < STEPS.indexOf(step) ? view.next_step : null;
}

/** A full page load to the next page (the one seam tests replace through `window.location`). */
export function navigate(url: string): void {
  window.location.assign(url);
}

/**
 * A page load that replaces this page in the history: for pages the shopper only passes through
 * (a step that hands over, the payment return), so Back does not land on them and bounce forward.
 */
export function redirect(url: string): void {
  window.location.replace(url);
}

// The checkout's steps take it from here with the other step helpers.
export { messageOf };

export function fieldsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fields : {};
}

/**
 * The form-level message for a refused address: when every field the API named is shown at its
 * field, a pointer to them (the API's own text would repeat them); otherwise the API's message
 * (422 'We only ship to UK, Jersey, and Guernsey', 'We can not ship to this address', …).
 */
export function addressFormMessage(error: unknown): string {
  const keys = Object.keys(fieldsOf(error));
  const allShown = error instanceof ApiError && error.status === 400 && keys.length > 0 && keys.every((key) => key.startsWith('address.'));
  return allShown ? CHECK_FIELDS : messageOf(error);
}

export const CHECK_FIELDS = 'Please check the highlighted fields.';

/**
 * Runs `act` on what `find` returns once React has rendered it. A state update made after an
 * await renders in a later task, not always before a `setTimeout(0)`: look again for a moment
 * (about 50 tasks), or focus would stay on the control the render removed and drop to the page.
 */
function whenRendered<T>(find: () => T | null | undefined, act: (found: T) => void, tries = 50): void {
  setTimeout(() => {
    const found = find();
    if (found != null) act(found);
    else if (tries > 1) whenRendered(find, act, tries - 1);
  }, 0);
}

/** Moves focus once React has rendered the change (a new section, an error). */
export function focusSoon(id: string): void {
  // The document that asked: a later look never reaches for another (or a torn-down) one.
  const page = document;
  whenRendered(() => page.getElementById(id), (el) => el.focus());
}

/** Focus on the first field marked invalid inside `containerId`, so the shopper lands on it. */
export function focusFirstInvalid(containerId: string): void {
  const page = document;
  whenRendered(() => page.getElementById(containerId)?.querySelector<HTMLElement>('[aria-invalid="true"]'), (el) => el.focus());
}
