// The wishlist sidebar (spec §2): total items and total price, Clear wishlist, Start shopping, and
// per item Add to cart (disabled when the item is not purchasable, aria-disabled while the bag loads). Names,
// prices and stock come from the API (`/variants`), never from what the browser stored.
import { useEffect, useState, type ReactElement } from 'react';
import { api, marketOf, prefixOf } from '../lib/api';
import { addToCart, formatMoney } from '../lib/cart';
import { notify } from '../lib/notifications';
import { store, useShopStore, type CartOption } from '../lib/store';
import { clearWishlist, removeFromWishlist } from '../lib/wishlist';
import { LineImage } from './LineImage';
import { Modal } from './Modal';

interface VariantSummary {
  product_id: number;
  variant_id: number;
  name: string;
  url: string;
  image_url: string | null;
  sale_price: number;
  list_price: number;
  options: CartOption[];
  purchasable: boolean;
}

const close = (): void => store.getState().closePanel('wishlist');

export default function WishlistSidebar(): ReactElement {
  const items = useShopStore((state) => state.wishlist.items);
  const cartLoading = useShopStore((state) => state.cart.loading);
  const [summaries, setSummaries] = useState<{ currency: string; byVariant: Map<number, VariantSummary> } | null>(null);
  const prefix = prefixOf(marketOf());
  const ids = items.map((i) => i.variant_id).join(',');

  useEffect(() => {
    if (ids === '') {
      setSummaries({ currency: 'GBP', byVariant: new Map() });
      return;
    }
    api<{ currency: string; data: VariantSummary[] }>('GET', `/variants?variant_ids=${ids}`)
      .then((answer) => setSummaries({ currency: answer.currency, byVariant: new Map(answer.data.map((v) => [v.variant_id, v])) }))
      .catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { tone: 'error' }));
  }, [ids]);

  const shown = items.flatMap((item) => {
    const summary = summaries?.byVariant.get(item.variant_id);
    return summary === undefined ? [] : [{ item, summary }];
  });
  const total = shown.reduce((sum, { summary }) => sum + summary.sale_price, 0);

  return (
    <Modal title="WISHLIST" variant="sidebar" onClose={close}>
      {items.length === 0 ? (
        <div className="bag-empty">
          <p className="bag-empty__text">Your wishlist is empty</p>
          <a className="btn btn--primary" href={prefix === '' ? '/' : prefix}>
            Start shopping
          </a>
        </div>
      ) : (
        <div className="wishlist" aria-busy={summaries === null}>
          <p className="wishlist__totals">
            <span data-wishlist-count>
              {items.length} {items.length === 1 ? 'item' : 'items'}
            </span>
            {summaries !== null && <span data-wishlist-total>{formatMoney(total, summaries.currency)}</span>}
          </p>
          <ul className="bag__lines">
            {shown.map(({ item, summary }) => (
              <li className="bag-line" key={item.id}>
                <a className="bag-line__image" href={summary.url} tabIndex={-1} aria-hidden="true">
                  <LineImage src={summary.image_url} />
                </a>
                <div className="bag-line__body">
                  <a className="bag-line__name" href={summary.url}>
                    {summary.name}
                  </a>
                  <p className="bag-line__attrs">{summary.options.map((o) => `${o.name}: ${o.value}`).join(', ')}</p>
                  <p className="bag-line__price">{formatMoney(summary.sale_price, summaries?.currency ?? 'GBP')}</p>
                  <button
                    type="button"
                    className="btn btn--primary btn--small"
                    disabled={!summary.purchasable}
                    // While the bag loads the button stays focusable (aria-disabled, not disabled):
                    // a disabled button drops keyboard focus to the body.
                    aria-disabled={cartLoading || undefined}
                    onClick={() => {
                      if (store.getState().cart.loading) return;
                      addToCart({ product_id: summary.product_id, variant_id: summary.variant_id, quantity: 1 })
                        .then(() => notify(`${summary.name} was added to your bag`, { tone: 'success' }))
                        .catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { tone: 'error' }));
                    }}
                  >
                    Add to cart<span className="visually-hidden"> {summary.name}</span>
                  </button>{' '}
                  <button type="button" className="link-button" onClick={() => void removeFromWishlist(item.id)}>
                    Remove<span className="visually-hidden"> {summary.name}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <div className="bag__summary">
            <button type="button" className="btn btn--secondary" onClick={() => void clearWishlist()}>
              Clear wishlist
            </button>
            <a className="btn btn--primary" href={prefix === '' ? '/' : prefix}>
              Start shopping
            </a>
          </div>
        </div>
      )}
    </Modal>
  );
}
