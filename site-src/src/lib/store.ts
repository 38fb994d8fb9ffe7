// The one shared client store for every island: cart, customer, wishlist, notifications, which
// panel is open, live stock, product selection and the colourway shown after a colour change.
// Islands are separate React roots and cannot share context, so they all subscribe here and keep no
// copy of their own. zustand's React binding serves `getInitialState()` as the server snapshot, so
// during hydration every island sees the neutral initial state (the same state the static HTML was
// rendered from) and re-renders with the live state right after: no hydration mismatch.
// The state that fills it lives in features/bag/cart.ts, features/account/account.ts and
// features/wishlist/wishlist.ts (their API calls one a file beside them); this file only holds state.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface ProductSelection {
  sizeId: number | null;
  lengthId: number | null;
  /** The variant matching colour + size + length, or null while the choice is incomplete. */
  variantId: number | null;
  /** Whether that variant is purchasable according to the catalog the page was built from. */
  purchasable: boolean;
  /** The chosen labels (for the added-to-bag popup and notify-me). */
  sizeLabel: string | null;
  lengthLabel: string | null;
  /** Whether the product offers sizes / lengths at all (then they must be chosen). */
  needSize: boolean;
  needLength: boolean;
  /** A variant of the shown colour, for the wishlist before a size is chosen. */
  colourVariantId: number | null;
}

/**
 * The island props of the colourway now shown, after a colour change without a reload. The store
 * sits below the features and never imports one, so the product feature, which owns those props,
 * declares the fields (`options`, `actions`) in features/product/colourway.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ShownColourway {}

export interface CartOption {
  name: string;
  nameId: number | null;
  value: string;
  valueId: number | null;
}

export interface LineItem {
  id: string;
  product_id: number;
  variant_id: number;
  sku: string;
  name: string;
  quantity: number;
  url: string;
  image_url: string | null;
  is_gift_card: boolean;
  list_price: number;
  sale_price: number;
  extended_list_price: number;
  extended_sale_price: number;
  options: CartOption[];
  available_to_sell: number | null;
  low_stock: boolean;
  sold_out: boolean;
}

export interface Cart {
  id: string | null;
  market: string;
  currency: { code: string };
  cart_amount: number;
  base_amount: number;
  line_items: { physical_items: LineItem[]; digital_items: LineItem[] };
  total_item_count: number;
  /** The promotions engine granted free shipping on this bag (absent when promotions are off). */
  free_shipping?: boolean;
  /** The API syncs this bag with the promotions engine when it opens (feature flag on). */
  promotions_enabled?: boolean;
  /** The wallet express button's settings; null (or absent) when express checkout is off. */
  express_checkout?: { merchant_label: string; country_code: string } | null;
}

export interface Customer {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  /** Text fields (Title, Date of Birth, custom fields) and the yes/no preferences, as booleans. */
  form_fields: { name: string; value: string | boolean }[];
}

export interface WishlistEntry {
  /** Guests: `{product_id}-{variant_id}`; signed in: the API's item id. */
  id: string;
  product_id: number;
  variant_id: number;
  name?: string;
  /**
   * False when the shopper chose only the colour: `variant_id` is then the colour's first variant,
   * whose size and length the wishlist must ask for, not assume. Absent (stored before): true.
   */
  options_chosen?: boolean;
}

export interface Notification {
  id: number;
  message: string;
  tone: 'info' | 'success' | 'error';
  persist: boolean;
}

/** What the added-to-bag popup shows. */
export interface AddedToBag {
  name: string;
  imageUrl: string | null;
  price: string;
  specialPrice: string | null;
  size: string | null;
  colour: string | null;
  length: string | null;
  quantity: number;
  isGiftCard: boolean;
  sku: string;
}

export type Panel = 'bag' | 'wishlist' | 'search' | 'locale' | 'login' | 'added' | 'newsletter' | 'size-guide' | null;

export interface StoreState {
  /**
   * `reduced`: lines the bag lowered to the stock left (line id → the quantity it held), shown on
   * the line until the shopper changes or removes it. Set by features/bag/cart.ts only (absent: none), so
   * the pages that never show a bag do not carry it.
   */
  cart: { data: Cart | null; count: number; loading: boolean; reduced?: Record<string, number> };
  /** A promotions sync is running: the bag icons and the bag's Checkout are disabled. */
  promotionsSyncing: boolean;
  customer: { signedIn: boolean; profile: Customer | null };
  wishlist: { id: string | null; items: WishlistEntry[]; loaded: boolean };
  notifications: Notification[];
  panel: Panel;
  /**
   * The control that opened the panel, when focus may have left it by the time the panel opens (Add
   * to bag is disabled while it adds): focus returns there on close. Null: wherever focus was.
   */
  opener: HTMLElement | null;
  added: AddedToBag | null;
  /** Live stock per product: variant id → available to sell (null = not tracked). */
  stock: Record<number, Record<number, number | null>>;
  /** Keyed by product id: a page may show more than one product's options. */
  selection: Record<number, ProductSelection>;
  /** Keyed by product id; absent until the shopper changes colour (the page's own props apply). */
  colourway: Record<number, ShownColourway>;
}

export interface StoreActions {
  setCart(cart: Cart | null): void;
  setCartCount(count: number): void;
  setCartLoading(loading: boolean): void;
  setPromotionsSyncing(syncing: boolean): void;
  setSignedIn(signedIn: boolean): void;
  setCustomer(profile: Customer | null): void;
  setWishlist(id: string | null, items: WishlistEntry[]): void;
  setNotifications(notifications: Notification[]): void;
  openPanel(panel: Panel, opener?: HTMLElement | null): void;
  closePanel(panel?: Panel): void;
  setAdded(added: AddedToBag | null): void;
  setStock(productId: number, stock: Record<number, number | null>): void;
  setSelection(productId: number, selection: ProductSelection): void;
  /** Shows another colourway: its props and the selection carried over, in one update. */
  showColourway(productId: number, colourway: ShownColourway, selection: ProductSelection): void;
  /** Back to the neutral state (tests; sign-out). */
  reset(): void;
}

export type Store = StoreState & StoreActions;

export function initialState(): StoreState {
  return {
    cart: { data: null, count: 0, loading: false },
    promotionsSyncing: false,
    customer: { signedIn: false, profile: null },
    wishlist: { id: null, items: [], loaded: false },
    notifications: [],
    panel: null,
    opener: null,
    added: null,
    stock: {},
    selection: {},
    colourway: {},
  };
}

/** Lines of a cart in bag order: physical first, then gift cards (digital). */
export function cartLines(cart: Cart | null): LineItem[] {
  if (cart === null) return [];
  return [...cart.line_items.physical_items, ...cart.line_items.digital_items];
}

export const store = createStore<Store>()((set) => ({
  ...initialState(),
  setCart: (cart) =>
    set((state) => ({ cart: { ...state.cart, data: cart, count: cart?.total_item_count ?? 0 } })),
  setCartCount: (count) => set((state) => ({ cart: { ...state.cart, count: Math.max(0, Math.trunc(count)) } })),
  setCartLoading: (loading) => set((state) => ({ cart: { ...state.cart, loading } })),
  setPromotionsSyncing: (promotionsSyncing) => set({ promotionsSyncing }),
  setSignedIn: (signedIn) => set((state) => ({ customer: { ...state.customer, signedIn } })),
  setCustomer: (profile) => set({ customer: { signedIn: profile !== null, profile } }),
  setWishlist: (id, items) => set({ wishlist: { id, items: [...items], loaded: true } }),
  setNotifications: (notifications) => set({ notifications }),
  openPanel: (panel, opener = null) => set({ panel, opener }),
  closePanel: (panel) => set((state) => (panel === undefined || state.panel === panel ? { panel: null } : {})),
  setAdded: (added) => set({ added }),
  setStock: (productId, stock) => set((state) => ({ stock: { ...state.stock, [productId]: stock } })),
  setSelection: (productId, selection) =>
    set((state) => ({ selection: { ...state.selection, [productId]: selection } })),
  showColourway: (productId, colourway, selection) =>
    set((state) => ({
      colourway: { ...state.colourway, [productId]: colourway },
      selection: { ...state.selection, [productId]: selection },
    })),
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
