// The actions islands load on first use (add to bag, wishlist toggle, error notifications), in one
// chunk: each separate dynamic import would add its own preload list to every page's eager code.
export { addToCart } from './cart';
import { notify } from './notifications';

export { notify };
export { toggleWishlist } from './wishlist';

/** Shows an error from any failed call as a notification. */
export function showError(error: unknown): void {
  notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
}
