//! Product actions island: live stock, gift-card / personalisation fields, Add to bag, notify-me and
//! the wishlist toggle. Server markup: templates/islands/product-actions.html.
// Stock comes from the API on load (the static page never claims stock); the chosen variant comes
// from ProductOptions through the shared store. Add to bag follows §4/§5 (availability.ts), adds 1,
// then opens the added-to-bag popup.
import { useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { api, ApiError } from '../lib/api';
import { canAddToBag, variantStockState, type StockState } from '../lib/availability';
import { addToCart } from '../lib/cart';
import { notify } from '../lib/notifications';
import { cartLines, store, useShopStore } from '../lib/store';
import { emailError, isEmail } from '../lib/validation';
import { WishlistToggle } from '../components/WishlistToggle';

const option = z.object({ id: z.number(), label: z.string() });

export const schema = z.object({
  productId: z.number(),
  name: z.string(),
  sku: z.string(),
  isGiftCard: z.boolean(),
  price: z.string(),
  salePrice: z.nullable(z.string()),
  image: z.nullable(z.string()),
  colour: z.string(),
  colourValueId: z.nullable(z.number()),
  sizes: z.array(option),
  lengths: z.array(option),
  variants: z.array(
    z.object({ id: z.number(), colour: z.nullable(z.number()), size: z.nullable(z.number()), length: z.nullable(z.number()), purchasable: z.boolean() }),
  ),
  modifiers: z.array(z.object({ id: z.number(), display_name: z.string(), kind: z.string(), required: z.boolean() })),
});

export type ProductActionsProps = z.infer<typeof schema>;
type Modifier = ProductActionsProps['modifiers'][number];

interface StockAnswer {
  variants: { variant_id: number; available_to_sell: number | null }[];
}

const isEmailField = (m: Modifier): boolean => m.display_name.toLowerCase().includes('email');

/** The message for one modifier's value, or null when it is fine (§5 gift-card rules). */
export function modifierError(m: Modifier, value: string): string | null {
  if (value.trim() === '') return m.required ? `Please enter ${m.display_name.toLowerCase()}` : null;
  return isEmailField(m) ? emailError(value) : null;
}

export function fieldsValid(modifiers: Modifier[], values: Record<number, string>): boolean {
  return modifiers.every((m) => modifierError(m, values[m.id] ?? '') === null);
}

function stockMessage(state: StockState): string {
  if (state === 'sold-out') return 'Out of stock';
  if (state === 'low') return 'There are less than 5 of these left';
  return '';
}

function labelOf(choices: { id: number; label: string }[], id: number | null): string | null {
  return choices.find((c) => c.id === id)?.label ?? null;
}

export default function ProductActions(props: ProductActionsProps): ReactElement {
  const { productId, modifiers } = props;
  const selection = useShopStore((state) => state.selection[productId]);
  const stock = useShopStore((state) => state.stock[productId]);
  const cart = useShopStore((state) => state.cart.data);
  const cartLoading = useShopStore((state) => state.cart.loading);
  const [values, setValues] = useState<Record<number, string>>({});
  const [touched, setTouched] = useState<Record<number, boolean>>({});
  const [adding, setAdding] = useState(false);
  const [notifyEmail, setNotifyEmail] = useState('');
  const [notifySent, setNotifySent] = useState(false);

  useEffect(() => {
    api<StockAnswer>('GET', `/stock/products/${productId}`)
      .then((answer) => {
        const map: Record<number, number | null> = {};
        for (const v of answer.variants) map[v.variant_id] = v.available_to_sell;
        store.getState().setStock(productId, map);
      })
      .catch((error: unknown) => notify(error instanceof Error ? error.message : String(error), { tone: 'error' }));
  }, [productId]);

  const variantId = selection?.variantId ?? null;
  const stockState = stock === undefined ? 'unknown' : variantStockState(stock, variantId);
  const available = stock === undefined || variantId === null ? undefined : stock[variantId];
  const inBag = cartLines(cart).filter((l) => l.variant_id === variantId).reduce((n, l) => n + l.quantity, 0);
  const enabled = canAddToBag({
    loading: adding || cartLoading,
    needSize: props.sizes.length > 0,
    sizeChosen: selection?.sizeId != null,
    needLength: props.lengths.length > 0,
    lengthChosen: selection?.lengthId != null,
    variantId,
    purchasable: selection?.purchasable ?? false,
    stockState,
    fieldsValid: fieldsValid(modifiers, values),
    inBag,
    available,
  });
  const wishVariant = variantId ?? props.variants.find((v) => props.colourValueId === null || v.colour === props.colourValueId)?.id ?? 0;

  const add = async (): Promise<void> => {
    if (variantId === null) return;
    setAdding(true);
    try {
      await addToCart({
        product_id: productId,
        variant_id: variantId,
        quantity: 1,
        option_selections: modifiers
          .filter((m) => (values[m.id] ?? '').trim() !== '')
          .map((m) => ({ option_id: m.id, option_value: (values[m.id] ?? '').trim() })),
      });
      store.getState().setAdded({
        name: props.name,
        imageUrl: props.image,
        price: props.price,
        specialPrice: props.salePrice,
        size: labelOf(props.sizes, selection?.sizeId ?? null),
        colour: props.colour,
        length: labelOf(props.lengths, selection?.lengthId ?? null),
        quantity: 1,
        isGiftCard: props.isGiftCard,
        sku: props.sku,
      });
      store.getState().openPanel('added');
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { tone: 'error' });
    } finally {
      setAdding(false);
    }
  };

  const sendNotify = async (): Promise<void> => {
    try {
      await api('POST', '/notify-me', {
        email: notifyEmail.trim(),
        product_id: productId,
        variant_id: variantId,
        size: labelOf(props.sizes, selection?.sizeId ?? null) ?? '',
        ...(props.lengths.length > 0 ? { fit: labelOf(props.lengths, selection?.lengthId ?? null) ?? '' } : {}),
      });
      setNotifySent(true);
    } catch (error) {
      notify(error instanceof ApiError ? error.message : String(error), { tone: 'error' });
    }
  };

  const notifyError = notifyEmail === '' ? null : emailError(notifyEmail);
  return (
    <div className="product-actions">
      {modifiers.length > 0 && (
        <fieldset className="product-actions__fields">
          <legend className="product-actions__legend">{props.isGiftCard ? 'Gift card details' : 'Personalise'}</legend>
          {modifiers.map((m) => {
            const id = `pa${productId}-m${m.id}`;
            const error = touched[m.id] === true ? modifierError(m, values[m.id] ?? '') : null;
            return (
              <div className="field" key={m.id}>
                <label className="field__label" htmlFor={id}>
                  {`${m.display_name}${m.required ? ' *' : ''}`}
                </label>
                <input
                  className="field__input"
                  id={id}
                  type={isEmailField(m) ? 'email' : 'text'}
                  value={values[m.id] ?? ''}
                  required={m.required}
                  aria-invalid={error !== null}
                  aria-describedby={error !== null ? `${id}-error` : undefined}
                  onChange={(event) => setValues({ ...values, [m.id]: event.target.value })}
                  onBlur={() => setTouched({ ...touched, [m.id]: true })}
                />
                {error !== null && (
                  <p className="field__error" id={`${id}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </fieldset>
      )}
      <p className="product-actions__stock" aria-live="polite">
        {stockMessage(stockState)}
      </p>
      <div className="product-actions__row">
        <button type="button" className="btn btn--primary product-actions__add" disabled={!enabled} onClick={() => void add()}>
          {adding ? 'Adding...' : stockState === 'sold-out' ? 'Sold Out' : 'Add to bag'}
        </button>
        <WishlistToggle productId={productId} variantId={wishVariant} name={props.name} />
      </div>
      {stockState === 'sold-out' && (
        <form
          className="notify-me"
          onSubmit={(event) => {
            event.preventDefault();
            if (isEmail(notifyEmail)) void sendNotify();
          }}
        >
          {notifySent ? (
            <p className="notify-me__done">We will email you when it is back in stock.</p>
          ) : (
            <>
              <label className="field__label" htmlFor={`pa${productId}-notify`}>
                Email me when it is back in stock
              </label>
              <input
                className="field__input"
                id={`pa${productId}-notify`}
                type="email"
                value={notifyEmail}
                aria-invalid={notifyError !== null}
                onChange={(event) => setNotifyEmail(event.target.value)}
              />
              {notifyError !== null && <p className="field__error">{notifyError}</p>}
              <button type="submit" className="btn btn--secondary" disabled={!isEmail(notifyEmail)}>
                Notify me
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
