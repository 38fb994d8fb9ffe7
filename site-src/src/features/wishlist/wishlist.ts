// The wishlist: a guest's lives in localStorage; a signed-in customer's is their first
// wishlist on the API (created when missing; one call a file, in wishlist-api/). Both end up in the
// shared store's `wishlist`.
import { notify } from '../../lib/notifications';
import { store, type WishlistEntry } from '../../lib/store';
import { addWishlistItems } from './wishlist-api/add-wishlist-items';
import { createWishlist } from './wishlist-api/create-wishlist';
import { deleteWishlist } from './wishlist-api/delete-wishlist';
import { deleteWishlistItem } from './wishlist-api/delete-wishlist-item';
import { getWishlists } from './wishlist-api/get-wishlists';
import type { ApiWishlist } from './wishlist-api/wishlist-view';

export const GUEST_WISHLIST_KEY = 'guest-wishlist';

/** The guest wishlist from storage; an empty one is created when absent or unreadable. */
export function readGuestWishlist(storage: Storage = window.localStorage): WishlistEntry[] {
  const raw = storage.getItem(GUEST_WISHLIST_KEY);
  if (raw !== null) {
    try {
      const parsed = JSON.parse(raw) as { items?: unknown };
      if (Array.isArray(parsed.items)) {
        return parsed.items.filter(
          (i): i is WishlistEntry =>
            typeof i === 'object' && i !== null && typeof (i as WishlistEntry).product_id === 'number' && typeof (i as WishlistEntry).variant_id === 'number',
        );
      }
    } catch {
      // A corrupt copy is replaced by an empty wishlist below.
    }
  }
  storage.setItem(GUEST_WISHLIST_KEY, JSON.stringify({ items: [] }));
  return [];
}

function saveGuest(items: WishlistEntry[]): void {
  window.localStorage.setItem(GUEST_WISHLIST_KEY, JSON.stringify({ items }));
  store.getState().setWishlist(null, items);
}

/** Guest rules: an existing product + variant pair is ignored; ids are `{product}-{variant}`. */
export function addGuestItem(items: WishlistEntry[], item: Omit<WishlistEntry, 'id'>): WishlistEntry[] {
  if (items.some((i) => i.product_id === item.product_id && i.variant_id === item.variant_id)) return items;
  return [...items, { ...item, id: `${item.product_id}-${item.variant_id}` }];
}

function fromApi(list: ApiWishlist): WishlistEntry[] {
  return list.items.map((i) => ({
    id: i.id,
    product_id: i.product_id,
    variant_id: i.variant_id,
    options_chosen: i.options_chosen,
    ...(i.name === null ? {} : { name: i.name }),
  }));
}

async function customerWishlist(): Promise<ApiWishlist> {
  const lists = await getWishlists();
  const first = lists.data[0];
  if (first !== undefined) return first;
  return createWishlist();
}

/** Loads the wishlist for the current visitor (reloaded on every sign-in change). */
export async function loadWishlist(): Promise<void> {
  if (!store.getState().customer.signedIn) {
    store.getState().setWishlist(null, readGuestWishlist());
    return;
  }
  const list = await customerWishlist();
  store.getState().setWishlist(list.id, fromApi(list));
}

export async function addToWishlist(item: Omit<WishlistEntry, 'id'>): Promise<void> {
  const { customer, wishlist } = store.getState();
  if (!customer.signedIn) {
    saveGuest(addGuestItem(readGuestWishlist(), item));
    return;
  }
  const id = wishlist.id ?? (await customerWishlist()).id;
  const list = await addWishlistItems(id, [{ product_id: item.product_id, variant_id: item.variant_id, options_chosen: item.options_chosen !== false }]);
  store.getState().setWishlist(list.id, fromApi(list));
}

export async function removeFromWishlist(itemId: string): Promise<void> {
  const { customer, wishlist } = store.getState();
  if (!customer.signedIn || wishlist.id === null) {
    saveGuest(readGuestWishlist().filter((i) => i.id !== itemId));
    return;
  }
  const list = await deleteWishlistItem(wishlist.id, itemId);
  store.getState().setWishlist(list.id, fromApi(list));
}

/** Clear: a guest's is emptied; a customer's is deleted and a fresh empty one created. */
export async function clearWishlist(): Promise<void> {
  const { customer, wishlist } = store.getState();
  if (!customer.signedIn) {
    saveGuest([]);
    return;
  }
  if (wishlist.id !== null) await deleteWishlist(wishlist.id);
  const fresh = await createWishlist();
  store.getState().setWishlist(fresh.id, fromApi(fresh));
}

export async function toggleWishlist(item: Omit<WishlistEntry, 'id'>): Promise<void> {
  // The toggle is per product: any variant of it already wished counts as "on".
  const existing = store.getState().wishlist.items.find((i) => i.product_id === item.product_id);
  try {
    if (existing === undefined) {
      await addToWishlist(item);
      notify('Added to your wishlist', { tone: 'success' });
    } else {
      await removeFromWishlist(existing.id);
      notify('Removed from your wishlist');
    }
  } catch (error) {
    notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
  }
}
