// POST /auth/register/confirm: the emailed link's token creates the account and signs it in.
import { api } from '../../../lib/api';
import type { GuestWishlist, SignedIn } from './post-login';

export function postRegisterConfirm(token: string, guestWishlist: GuestWishlist): Promise<SignedIn> {
  return api<SignedIn>('POST', '/auth/register/confirm', { token, guest_wishlist: guestWishlist });
}
