// The bag's state: every change goes to the API (one call a file, in cart-api/), whose answer
// (prices, totals and stock computed by the server) replaces the store's cart. Nothing here computes
// a price or total itself.
import { ApiError, marketOf, type Market } from '../../lib/api';
import { isSignedInHint } from '../../lib/cookies';
import { notify } from '../../lib/notifications';
import { cartLines, store, type Cart, type LineItem } from '../../lib/store';
import { addCartItems, type NewLine } from './cart-api/add-cart-items';
import { createCart } from './cart-api/create-cart';
import { deleteCartItem } from './cart-api/delete-cart-item';
import { getCart } from './cart-api/get-cart';
import { putCartItem } from './cart-api/put-cart-item';

export type { OptionSelection } from './cart-api/add-cart-items';

/** A cart event with its tracking rows; the rows' builder loads with the first event. */
function trackCart(event: string, lines: LineItem[]): void {
  const cart = store.getState().cart.data;
  void import('../../lib/cart-tracking').then((tracking) => tracking.trackCartEvent(event, lines, cart));
}

async function withLoading<T>(run: () => Promise<T>): Promise<T> {
  store.getState().setCartLoading(true);
  try {
    return await run();
  } finally {
    store.getState().setCartLoading(false);
  }
}

// The cart cookie is HttpOnly, so the page cannot see whether there is a cart. Asking anyway would
// answer 404 (a console error) for every new visitor: remember per market that a cart was issued.
const CART_HINT = 'has-cart';

/** The localStorage key of the market's "there is a cart" hint (see `keep`). */
export function cartHintKey(market: Market = marketOf()): string {
  return `${CART_HINT}-${market}`;
}

const hintKey = (): string => cartHintKey();

/**
 * Keeps the cart in the store and the "there is a cart" hint in step with it: '1' for a cart with
 * lines, '0' for an empty one (it still exists: the next add goes to it).
 */
function keep(cart: Cart | null): void {
  if (cart?.id == null) window.localStorage.removeItem(hintKey());
  else window.localStorage.setItem(hintKey(), cartLines(cart).length > 0 ? '1' : '0');
  store.getState().setCart(cart);
}

/**
 * What this browser last saw of its cart in this market: none (no cart cookie was issued, or the
 * API said it is gone), an empty cart, or one with lines. The checkout asks the API only for
 * `lines` (no cart would answer 404 and an empty one 409, console errors for an ordinary visitor).
 */
export function cartHint(): 'none' | 'empty' | 'lines' {
  try {
    const hint = window.localStorage.getItem(hintKey());
    return hint === null ? 'none' : hint === '1' ? 'lines' : 'empty';
  } catch {
    // Storage refused: nothing is known, let the API say.
    return 'lines';
  }
}

/** Reads the shopper's cart; a missing cart (404) is the empty cart, not an error. */
export async function loadCart(): Promise<Cart | null> {
  if (window.localStorage.getItem(hintKey()) === null) {
    keep(null);
    return null;
  }
  try {
    const cart = await withLoading(getCart);
    keep(cart);
    return cart;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      keep(null);
      return null;
    }
    throw error;
  }
}

export { keep as keepCart };

/** Adds one line; throws the API's error (e.g. 409 insufficient stock) for the caller to show. */
export async function addToCart(line: NewLine): Promise<Cart> {
  const cart = await withLoading(async () => {
    if (window.localStorage.getItem(hintKey()) === null) await createCart();
    try {
      return await addCartItems([line]);
    } catch (error) {
      // No cart yet (first add, or the cookie expired): start one, then add.
      if (!(error instanceof ApiError && error.code === 'cart_not_found')) throw error;
      await createCart();
      return addCartItems([line]);
    }
  });
  keep(cart);
  trackCart('add_to_cart', cartLines(cart).filter((l) => l.variant_id === line.variant_id).map((l) => ({ ...l, quantity: line.quantity })));
  return cart;
}

/** The most the quantity field offers: what is left when stock is tracked, else `MAX_QUANTITY`. */
export const MAX_QUANTITY = 999;
export function quantityLimit(line: Pick<LineItem, 'available_to_sell'>): number {
  return line.available_to_sell === null ? MAX_QUANTITY : Math.min(MAX_QUANTITY, Math.max(0, line.available_to_sell));
}

/** The line's quantity in the store's cart now (the shopper's change may have been refused). */
export function heldQuantity(item: Pick<LineItem, 'id' | 'quantity'>): number {
  return cartLines(store.getState().cart.data).find((l) => l.id === item.id)?.quantity ?? item.quantity;
}

/** Sets the lines the bag reduced to the stock left (see the store's `cart.reduced`). */
export function setReduced(reduced: Record<string, number>): void {
  store.setState((state) => ({ cart: { ...state.cart, reduced } }));
}

function forgetReduced(itemId: string): void {
  const { [itemId]: gone, ...rest } = store.getState().cart.reduced ?? {};
  if (gone !== undefined) setReduced(rest);
}

/**
 * Sets a line's quantity. 'stock': the API refused it for the stock left (the caller says so on the
 * line, once, rather than in a notification); 'failed': any other refusal, notified. Either way the
 * cart is reloaded, so the line shows what the bag holds.
 */
export async function setQuantity(item: LineItem, quantity: number): Promise<'ok' | 'stock' | 'failed'> {
  try {
    const cart = await withLoading(() => putCartItem(item.id, quantity));
    forgetReduced(item.id);
    keep(cart);
    return 'ok';
  } catch (error) {
    const stock = error instanceof ApiError && error.code === 'insufficient_stock';
    if (!stock) notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
    await loadCart().catch(() => undefined);
    return stock ? 'stock' : 'failed';
  }
}

/** Lines holding more than is left (and something is left): the bag lowers them to it. */
export function linesOverStock(cart: Cart | null): LineItem[] {
  return cartLines(cart).filter((l) => l.available_to_sell !== null && l.available_to_sell > 0 && l.quantity > l.available_to_sell);
}

/**
 * Lowers every line above the stock left to what is left and remembers what it held, for the
 * line's 'Quantity reduced' mark. Sold-out lines stay: the shopper removes them.
 */
async function reduceToStock(cart: Cart | null): Promise<void> {
  const over = linesOverStock(cart);
  if (over.length === 0) return;
  const reduced = { ...store.getState().cart.reduced };
  for (const line of over) {
    const cut = await withLoading(() => putCartItem(line.id, line.available_to_sell));
    reduced[line.id] = line.quantity;
    keep(cut);
  }
  setReduced(reduced);
}

export async function removeItem(item: LineItem): Promise<void> {
  try {
    const cart = await withLoading(() => deleteCartItem(item.id));
    forgetReduced(item.id);
    keep(cart);
    trackCart('remove_from_cart', [item]);
  } catch (error) {
    notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
  }
}

/** Opening the bag: reload the cart (its lines carry live stock), then send view_cart. */
export async function refreshBag(): Promise<void> {
  try {
    await reduceToStock(await loadCart());
    trackCart('view_cart', cartLines(store.getState().cart.data));
  } catch (error) {
    notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
  }
}

/** Checkout is blocked while any line is sold out, the cart is loading or promotions sync. */
export function checkoutBlocked(cart: Cart | null, loading: boolean, syncing = false): boolean {
  return loading || syncing || cartLines(cart).some((line) => line.sold_out);
}

/**
 * Where the bag's and the popup's Checkout go: a signed-in shopper skips the identity step.
 * The store or the cookie hint decides the link; the checkout's own POST /checkout has the last word.
 */
export function checkoutEntry(prefix: string, signedIn: boolean = store.getState().customer.signedIn): string {
  return signedIn || isSignedInHint() ? `${prefix}/checkout/delivery` : `${prefix}/checkout-identity`;
}
