// The actions islands load on first use (add to bag, wishlist toggle, error notifications), in one
// chunk: each separate dynamic import would add its own preload list to every page's eager code.
import { addToCart, type OptionSelection } from '../bag/cart';
import { store, type AddedToBag } from '../../lib/store';

export { addToCart };
import { notify } from '../../lib/notifications';

export { notify };
export { toggleWishlist } from '../wishlist/wishlist';

/** Shows an error from any failed call as a notification. */
export function showError(error: unknown): void {
  notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
}

/** Product page add to bag: one unit, then the added-to-bag popup, which gives focus back to `opener`. */
export async function addFromProductPage(
  line: { product_id: number; variant_id: number; option_selections: OptionSelection[] },
  added: AddedToBag,
  opener: HTMLElement,
): Promise<void> {
  await addToCart({ ...line, quantity: 1 });
  store.getState().setAdded(added);
  store.getState().openPanel('added', opener);
}
