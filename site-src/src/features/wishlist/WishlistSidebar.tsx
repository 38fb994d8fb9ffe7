// The wishlist sidebar: total items and total price, Clear wishlist, Start shopping, and
// per item Add to cart (disabled when the item is not purchasable, aria-disabled while the bag loads;
// an item saved with only its colour asks for a size first). Names, prices and stock come from the
// API (`/variants`), never from what the browser stored.
import { useEffect, useState, type ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { optionLabel } from '../../lib/line-options';
import { addToCart } from '../bag/cart';
import { notify } from '../../lib/notifications';
import { SOLD_OUT } from '../../lib/stock-copy';
import { store, useShopStore, type WishlistEntry } from '../../lib/store';
import { getProductStock } from '../product/product-api/get-product-stock';
import { choicesFor, chosenVariant, sameColour, shownOptions, type ChoosableVariant, type OptionChoice } from './wishlist-choice';
import { SelectField } from '../../components/Field';
import { clearWishlist, removeFromWishlist } from './wishlist';
import { LineImage } from '../../components/LineImage';
import { Modal } from '../../components/Modal';
import { getVariants, type VariantSummary } from './wishlist-api/get-variants';

const close = (): void => store.getState().closePanel('wishlist');

function addLine(summary: VariantSummary, variantId: number): void {
  addToCart({ product_id: summary.product_id, variant_id: variantId, quantity: 1 })
    .then(() => notify(`${summary.name} was added to your bag`, { tone: 'success' }))
    .catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { tone: 'error' }));
}

/** The colour's variants (the product's, from its stock, then their options), for the size choice. */
async function colourVariants(summary: VariantSummary): Promise<ChoosableVariant[]> {
  const stock = await getProductStock(summary.product_id);
  const ids = stock.variants.map((v) => v.variant_id).join(',');
  const all = await getVariants(ids);
  return sameColour(all.data, summary);
}

/**
 * The size (and length) an item saved with only its colour asks for before it can go in the bag
 * (no add while an offered option is unchosen); the bag gets exactly the chosen variant.
 */
function SizeChoice({ item, summary, busy }: { item: WishlistEntry; summary: VariantSummary; busy: boolean }): ReactElement {
  const [variants, setVariants] = useState<ChoosableVariant[] | null>(null);
  const [size, setSize] = useState('');
  const [length, setLength] = useState('');
  const [errors, setErrors] = useState<{ size: string | null; length: string | null }>({ size: null, length: null });
  useEffect(() => {
    colourVariants(summary)
      .then(setVariants)
      .catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { tone: 'error' }));
  }, [summary]);
  const sizes = variants === null ? [] : choicesFor(variants, 'Size');
  const lengths = variants === null ? [] : choicesFor(variants, 'Length');
  const label = (c: OptionChoice): { value: string; label: string } => ({ value: c.value, label: c.purchasable ? c.label : `${c.label} (${SOLD_OUT})` });
  const add = (): void => {
    if (variants === null) return;
    const found = chosenVariant(variants, size, length);
    if (found === null) {
      setErrors({ size: sizes.length > 0 && size === '' ? 'Please select a size' : null, length: lengths.length > 0 && length === '' ? 'Please select a length' : null });
      document.getElementById(sizes.length > 0 && size === '' ? `wish-size-${item.id}` : `wish-length-${item.id}`)?.focus();
      return;
    }
    if (!found.purchasable) {
      setErrors({ size: SOLD_OUT, length: null });
      return;
    }
    addLine(summary, found.variant_id);
  };
  return (
    <div className="wishlist__choice" aria-busy={variants === null}>
      {sizes.length > 0 && (
        <SelectField id={`wish-size-${item.id}`} label="Size" value={size} onChange={(v) => { setSize(v); setErrors((e) => ({ ...e, size: null })); }} options={sizes.map(label)} placeholder="Select a size" error={errors.size} required />
      )}
      {lengths.length > 0 && (
        <SelectField id={`wish-length-${item.id}`} label="Length" value={length} onChange={(v) => { setLength(v); setErrors((e) => ({ ...e, length: null })); }} options={lengths.map(label)} placeholder="Select a length" error={errors.length} required />
      )}
      <AddButton name={summary.name} disabled={variants === null || !variants.some((v) => v.purchasable)} busy={busy} onClick={add} />
    </div>
  );
}

/** Add to cart; it does nothing while the bag loads (another add is under way). */
function AddButton({ name, disabled, busy, onClick }: { name: string; disabled: boolean; busy: boolean; onClick(): void }): ReactElement {
  return (
    <button
      type="button"
      className="btn btn--primary btn--small"
      disabled={disabled}
      // While the bag loads the button stays focusable (aria-disabled, not disabled):
      // a disabled button drops keyboard focus to the body.
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!store.getState().cart.loading) onClick();
      }}
    >
      Add to cart<span className="visually-hidden"> {name}</span>
    </button>
  );
}

function WishlistLine({ item, summary, currency, cartLoading }: { item: WishlistEntry; summary: VariantSummary; currency: string; cartLoading: boolean }): ReactElement {
  const chosen = item.options_chosen !== false;
  return (
    <li className="bag-line">
      <a className="bag-line__image" href={summary.url} tabIndex={-1} aria-hidden="true">
        <LineImage src={summary.image_url} />
      </a>
      <div className="bag-line__body">
        <a className="bag-line__name" href={summary.url}>
          {summary.name}
        </a>
        <p className="bag-line__attrs">{shownOptions(summary.options, chosen).map((o) => `${optionLabel(o.name)}: ${o.value}`).join(', ')}</p>
        <p className="bag-line__price">{formatMoney(summary.sale_price, currency)}</p>
        {chosen ? (
          <AddButton name={summary.name} disabled={!summary.purchasable} busy={cartLoading} onClick={() => addLine(summary, summary.variant_id)} />
        ) : (
          <SizeChoice item={item} summary={summary} busy={cartLoading} />
        )}{' '}
        <button type="button" className="link-button" onClick={() => void removeFromWishlist(item.id)}>
          Remove<span className="visually-hidden"> {summary.name}</span>
        </button>
      </div>
    </li>
  );
}

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
    getVariants(ids)
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
              <WishlistLine key={item.id} item={item} summary={summary} currency={summaries?.currency ?? 'GBP'} cartLoading={cartLoading} />
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
