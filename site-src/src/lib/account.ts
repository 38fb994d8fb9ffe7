// Sign-in state (spec §4): sign in, register, sign out, and the profile. The API sets the session
// and `user-authenticated` cookies; the store follows, and the cart and wishlist reload on every change.
import { api, ApiError } from './api';
import { track } from './analytics';
import { keepCart, loadCart } from './cart';
import { store, type Cart, type Customer } from './store';
import { GUEST_WISHLIST_KEY, loadWishlist, readGuestWishlist } from './wishlist';

/** The titles a registration offers (§5: one must be selected). */
export const TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Mx', 'Dr'] as const;

interface SignedIn {
  customer: Customer;
  cart: Cart | null;
}

function guestItems(): { product_id: number; variant_id: number; options_chosen: boolean }[] {
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

export async function signIn(email: string, password: string): Promise<Customer> {
  const answer = await api<SignedIn>('POST', '/auth/login', { email: email.trim(), password, guest_wishlist: guestItems() });
  return signedIn(answer.customer, answer.cart);
}

/**
 * Registers. The API answers alike whether or not the email has an account (no enumeration) and
 * emails a link: the account exists once that link is opened (`confirmRegistration`).
 */
export async function register(payload: Record<string, unknown>): Promise<void> {
  await api<{ status: string }>('POST', '/auth/register', { ...payload, guest_wishlist: guestItems() });
}

/** Opens the emailed link: the account is created and signed in, keeping this browser's bag. */
export async function confirmRegistration(token: string): Promise<Customer> {
  const answer = await api<SignedIn>('POST', '/auth/register/confirm', { token, guest_wishlist: guestItems() });
  track('sign_up', { method: 'email' });
  return signedIn(answer.customer, answer.cart);
}

export async function signOut(): Promise<void> {
  try {
    await api('POST', '/auth/logout', {});
  } finally {
    store.getState().setCustomer(null);
    await loadCart().catch(() => undefined);
    await loadWishlist().catch(() => undefined);
  }
}

/** The signed-in customer, or null (401) — also corrects a stale `user-authenticated` hint. */
export async function loadCustomer(): Promise<Customer | null> {
  try {
    const me = await api<Customer>('GET', '/customer');
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

