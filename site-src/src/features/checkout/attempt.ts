// One Place order attempt across presses, retries and the payment redirect, in sessionStorage: its
// Idempotency-Key (a double press or a retry after a network error reuses it, so the API answers
// the same order instead of charging twice), the order a redirect will come back for, and the
// reason a redirect payment failed (shown on the payment step).
import { marketOf } from '../../lib/api';

const keyName = (checkoutId: string): string => `checkout-order-key-${checkoutId}`;
const pendingName = (): string => `checkout-pending-${marketOf()}`;
const declinedName = (): string => `checkout-declined-${marketOf()}`;

function read(name: string): string | null {
  try {
    return window.sessionStorage.getItem(name);
  } catch {
    return null;
  }
}

function write(name: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(name);
    else window.sessionStorage.setItem(name, value);
  } catch {
    // Refused storage: a retry then gets a new key; the API still never charges one key twice.
  }
}

/** A new key: 8–64 of A-Z a-z 0-9 - _ (a UUID; random hex where randomUUID is missing). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The current attempt's key for this checkout, created on first use. */
export function attemptKey(checkoutId: string): string {
  const kept = read(keyName(checkoutId));
  if (kept !== null) return kept;
  const key = newIdempotencyKey();
  write(keyName(checkoutId), key);
  return key;
}

/** The attempt is over (declined, refused, or done): the next Place order is a new attempt. */
export function endAttempt(checkoutId: string): void {
  write(keyName(checkoutId), null);
}

export interface Pending {
  checkoutId: string;
  orderId: string;
}

/** The order a 3-D Secure / PayPal / Klarna redirect will come back to /checkout/return for. */
export function rememberPending(pending: Pending | null): void {
  write(pendingName(), pending === null ? null : JSON.stringify(pending));
}

export function readPending(): Pending | null {
  try {
    const parsed = JSON.parse(read(pendingName()) ?? 'null') as Pending | null;
    return typeof parsed?.checkoutId === 'string' && typeof parsed.orderId === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Why a redirect payment failed, for the payment step (`?notice=declined`). Kept here rather than in
 * the URL, so a link cannot make the shop's page say something the API did not.
 */
export function rememberDeclined(message: string | null): void {
  write(declinedName(), message);
}

export function readDeclined(): string | null {
  return read(declinedName());
}
