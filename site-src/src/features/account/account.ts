// Sign-in state: sign in, register, sign out, and the profile (one API call a file, in account-api/).
// The API sets the session and `user-authenticated` cookies; the store follows, and the cart and
// wishlist reload on every change.
import { ApiError } from '../../lib/api';
import { track } from '../../lib/analytics';
import { keepCart, loadCart } from '../bag/cart';
import { store, type Cart, type Customer } from '../../lib/store';
import { GUEST_WISHLIST_KEY, loadWishlist, readGuestWishlist } from '../wishlist/wishlist';
import { getCustomer } from './account-api/get-customer';
import { postLogin, type GuestWishlist, type SignedIn } from './account-api/post-login';
import { postLogout } from './account-api/post-logout';
import { postRegister } from './account-api/post-register';
import { postRegisterConfirm } from './account-api/post-register-confirm';
import { putCustomer } from './account-api/put-customer';

/** The titles a registration offers (one must be selected). */
export const TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Mx', 'Dr'] as const;

function guestItems(): GuestWishlist {
  return readGuestWishlist().map((i) => ({ product_id: i.product_id, variant_id: i.variant_id, options_chosen: i.options_chosen !== false }));
}

/**
 * After a sign-in: the guest wishlist was merged by the API, so the stored copy goes. `cart` is
 * the cart the answer carried: the bag this browser had, taken over by the account.
 */
async function signedIn(customer: Customer, cart: Cart | null): Promise<Customer> {
  window.localStorage.removeItem(GUEST_WISHLIST_KEY);
  store.getState().setCustomer(customer);
  keepCart(cart);
  await loadWishlist();
  return customer;
}

/** The sign-in service failed (no answer, or a server error): not the shopper's mistake. */
export const LOGIN_SERVICE_FAILED = 'Credentials are invalid.';
/** Signed in, but the answer carried no customer: the shopper is signed out again. */
export const USER_DATA_FAILED = 'Retrieving user data failed.';
/** The profile update answered without the customer. */
export const UPDATE_FAILED = 'Failed to update customer';

/** A failed sign-in leaves no half-signed-in state behind: the session (if any) is ended. */
async function signInFailed(message: string): Promise<never> {
  await signOut().catch(() => undefined);
  throw new Error(message);
}

export async function signIn(email: string, password: string): Promise<Customer> {
  let answer: SignedIn | null;
  try {
    answer = await postLogin(email.trim(), password, guestItems());
  } catch (error) {
    // A refusal (wrong password, too many tries) keeps the API's own words; a failing service does not.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
    return signInFailed(LOGIN_SERVICE_FAILED);
  }
  if (typeof answer?.customer?.email !== 'string') return signInFailed(USER_DATA_FAILED);
  // Signed in from here on. The wishlist that loads next is not the customer's data: its failure
  // (or the /login page leaving for my-account mid-load, which aborts it) never signs out.
  return signedIn(answer.customer, answer.cart);
}

/** Saves the profile; an answer without the customer is a failure, whatever its status. */
export async function updateCustomer(body: Record<string, unknown>): Promise<Customer> {
  const updated = await putCustomer(body);
  if (typeof updated?.email !== 'string') throw new Error(UPDATE_FAILED);
  store.getState().setCustomer(updated);
  return updated;
}

/**
 * Registers. The API answers alike whether or not the email has an account (no enumeration) and
 * emails a link: the account exists once that link is opened (`confirmRegistration`).
 */
export async function register(payload: Record<string, unknown>): Promise<void> {
  await postRegister(payload, guestItems());
}

/** Opens the emailed link: the account is created and signed in, keeping this browser's bag. */
export async function confirmRegistration(token: string): Promise<Customer> {
  const answer = await postRegisterConfirm(token, guestItems());
  track('sign_up', { method: 'email' });
  return signedIn(answer.customer, answer.cart);
}

export async function signOut(): Promise<void> {
  try {
    await postLogout();
  } finally {
    store.getState().setCustomer(null);
    await loadCart().catch(() => undefined);
    await loadWishlist().catch(() => undefined);
  }
}

/** The signed-in customer, or null (401) — also corrects a stale `user-authenticated` hint. */
export async function loadCustomer(): Promise<Customer | null> {
  try {
    const me = await getCustomer();
    store.getState().setCustomer(me);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      store.getState().setCustomer(null);
      return null;
    }
    throw error;
  }
}

