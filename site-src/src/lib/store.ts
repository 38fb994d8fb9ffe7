//! The one shared client store for every island: cart, customer, wishlist and product selection.
// Islands are separate React roots and cannot share context, so they all subscribe here and keep no
// copy of their own. zustand's React binding serves `getInitialState()` as the server snapshot, so
// during hydration every island sees the neutral initial state (the same state the static HTML was
// rendered from) and re-renders with the live state right after: no hydration mismatch.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface ProductSelection {
  sizeId: number | null;
  lengthId: number | null;
  /** The variant matching colour + size + length, or null while the choice is incomplete. */
  variantId: number | null;
  /** Whether that variant is purchasable according to the catalog the page was built from. */
  purchasable: boolean;
}

export interface StoreState {
  cart: { count: number };
  customer: { signedIn: boolean };
  wishlist: { productIds: number[] };
  /** Keyed by product id: a page may show more than one product's options. */
  selection: Record<number, ProductSelection>;
}

export interface StoreActions {
  setCartCount(count: number): void;
  setSignedIn(signedIn: boolean): void;
  setWishlist(productIds: number[]): void;
  setSelection(productId: number, selection: ProductSelection): void;
  /** Back to the neutral state (tests; sign-out later). */
  reset(): void;
}

export type Store = StoreState & StoreActions;

export function initialState(): StoreState {
  return {
    cart: { count: 0 },
    customer: { signedIn: false },
    wishlist: { productIds: [] },
    selection: {},
  };
}

export const store = createStore<Store>()((set) => ({
  ...initialState(),
  setCartCount: (count) => set({ cart: { count: Math.max(0, Math.trunc(count)) } }),
  setSignedIn: (signedIn) => set({ customer: { signedIn } }),
  setWishlist: (productIds) => set({ wishlist: { productIds: [...productIds] } }),
  setSelection: (productId, selection) =>
    set((state) => ({ selection: { ...state.selection, [productId]: selection } })),
  reset: () => set(initialState()),
}));

/** Subscribe a component to a slice of the shared store. */
export function useShopStore<T>(selector: (state: Store) => T): T {
  return useStore(store, selector);
}

/** The variant the shopper has chosen for a product (for the add-to-bag island), or null. */
export function selectedVariantId(productId: number, state: StoreState = store.getState()): number | null {
  return state.selection[productId]?.variantId ?? null;
}
