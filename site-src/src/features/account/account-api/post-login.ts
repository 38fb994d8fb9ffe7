// POST /auth/login: signs in with email and password, merging the guest wishlist sent along; the
// API sets the session and `user-authenticated` cookies and answers the customer and their cart.
import { api } from '../../../lib/api';
import type { Cart, Customer } from '../../../lib/store';

/** A guest's wishlist items, merged into the account's on sign-in or registration. */
export type GuestWishlist = { product_id: number; variant_id: number; options_chosen: boolean }[];

/** What a sign-in answers: the customer, and the cart this browser had, now the account's. */
export interface SignedIn {
  customer: Customer;
  cart: Cart | null;
}

export function postLogin(email: string, password: string, guestWishlist: GuestWishlist): Promise<SignedIn | null> {
  return api<SignedIn | null>('POST', '/auth/login', { email, password, guest_wishlist: guestWishlist });
}
