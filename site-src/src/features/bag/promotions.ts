// Opening the bag sidebar with promotions on: sync the bag with the promotions engine
// (the API evaluates the cart it stores, at its own prices) while `promotionsSyncing` disables the
// bag icons and Checkout, then reload the cart (its lines carry live stock) and send view_cart.
// Loaded with the bag sidebar only, so no page's first bundle carries it.
import { keepCart, loadCart, refreshBag } from './cart';
import { syncPromotions } from './cart-api/sync-promotions';
import { store } from '../../lib/store';

/** Sync (when the API says promotions are on for this bag), then the usual bag refresh. */
export async function openBag(): Promise<void> {
  // The session may still be loading the cart when the bag opens: ask for it first.
  const cart = store.getState().cart.data ?? (await loadCart().catch(() => null));
  if (cart?.promotions_enabled === true && cart.id !== null) {
    store.getState().setPromotionsSyncing(true);
    try {
      keepCart(await syncPromotions());
    } catch {
      // The engine being down must not cost the shopper their bag: it shows the undiscounted
      // total the API computes anyway, and the next opening tries again.
    } finally {
      store.getState().setPromotionsSyncing(false);
    }
  }
  await refreshBag();
}
