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

function guestItems(): { product_id: number; variant_id: number }[] {
  return readGuestWishlist().map((i) => ({ product_id: i.product_id, variant_id: i.variant_id }));
}

/**
 * After a sign-in: the guest wishlist was merged by the API, so the stored copy goes (§4). `cart`
 * is the cart the answer carried; without one (registration answers only its status) the cart is
 * reloaded, because taking "no cart" as the truth would drop the bag the server kept.
 */
async function signedIn(customer: Customer, cart?: Cart | null): Promise<Customer> {
  window.localStorage.removeItem(GUEST_WISHLIST_KEY);
  store.getState().setCustomer(customer);
  if (cart === undefined) await loadCart().catch(() => undefined);
  else keepCart(cart);
  await loadWishlist();
  return customer;
}

export async function signIn(email: string, password: string): Promise<Customer> {
  const answer = await api<SignedIn>('POST', '/auth/login', { email: email.trim(), password, guest_wishlist: guestItems() });
  return signedIn(answer.customer, answer.cart);
}

export async function register(payload: Record<string, unknown>): Promise<Customer> {
  await api<{ status: string }>('POST', '/auth/register', { ...payload, guest_wishlist: guestItems() });
  // The API answers an already-registered email like a new one but starts no session: check it.
  const me = await loadCustomer();
  if (me === null) {
    throw new ApiError(409, {
      code: 'not_registered',
      message: 'We could not create an account for this email address. If you already have an account, please sign in or reset your password.',
    });
  }
  track('sign_up', { method: 'email' });
  return signedIn(me);
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

