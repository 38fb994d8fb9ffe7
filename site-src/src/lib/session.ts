//! Fills the shared store with what this visitor's browser already knows (cookies), after hydration.
// The cart count will come from the api (`/api/cart`) with the shopper-UI work; until then it stays 0.
import { isSignedInHint } from './cookies';
import { store } from './store';

export function syncSessionHints(): void {
  store.getState().setSignedIn(isSignedInHint());
}
