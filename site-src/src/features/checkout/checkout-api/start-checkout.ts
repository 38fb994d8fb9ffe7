// POST /checkout: create or resume the current cart's checkout; every step starts with it.
// The bag is re-read and re-checked for stock. 404 cart_not_found / 409 cart_empty come back as
// ApiError for the caller (see `isNoCart` and `isEmptyBag`).
import { api, ApiError } from '../../../lib/api';
import type { Checkout } from './checkout-view';

export function startCheckout(): Promise<Checkout> {
  return api<Checkout>('POST', '/checkout', {});
}

/** No cart: 404 cart_not_found (no cart cookie, or the order closed the cart and cleared it). */
export function isNoCart(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'cart_not_found';
}

/** A cart with nothing to buy: 409 cart_empty. */
export function isEmptyBag(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'cart_empty';
}
