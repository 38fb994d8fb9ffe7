// POST /auth/register: answers alike whether or not the email has an account, and emails a link.
import { api } from '../../../lib/api';
import type { GuestWishlist } from './post-login';

export async function postRegister(payload: Record<string, unknown>, guestWishlist: GuestWishlist): Promise<void> {
  await api<{ status: string }>('POST', '/auth/register', { ...payload, guest_wishlist: guestWishlist });
}
