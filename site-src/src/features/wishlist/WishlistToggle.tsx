// The wishlist toggle (a heart): adds or removes a product + variant on the shared store's wishlist,
// for guests (localStorage) and signed-in customers alike. Used by the product page; reusable on cards.
// First render is the neutral "not in the wishlist" state, so it hydrates inside static markup.
import type { ReactElement } from 'react';
import { useShopStore } from '../../lib/store';
import { HEART_PATH } from '../../lib/icons';

export interface WishlistToggleProps {
  productId: number;
  /** Null until the page knows a variant (the toggle is then disabled). */
  variantId: number | null;
  /** False when `variantId` only stands for the chosen colour (no size or length chosen yet). */
  optionsChosen: boolean;
  name: string;
}


export function WishlistToggle({ productId, variantId, optionsChosen, name }: WishlistToggleProps): ReactElement {
  // Per product: any of its variants wished counts as "on" (as toggleWishlist removes it).
  const wished = useShopStore((state) => state.wishlist.items.some((i) => i.product_id === productId));
  return (
    <button
      type="button"
      className={`wishlist-toggle${wished ? ' wishlist-toggle--on' : ''}`}
      aria-pressed={wished}
      aria-label={`Wishlist: ${name}`}
      disabled={variantId === null}
      onClick={() => {
        if (variantId !== null) {
          void import('../product/shop-actions').then(({ toggleWishlist }) => toggleWishlist({ product_id: productId, variant_id: variantId, options_chosen: optionsChosen, name }));
        }
      }}
    >
      <svg className="icon icon--heart" width="24" height="24" viewBox="0 0 24 24" fill={wished ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
        <path d={HEART_PATH} />
      </svg>
    </button>
  );
}
