// The product actions (hydrated by the ProductActions island): live stock, gift-card /
// personalisation fields, Add to bag, notify-me and the wishlist toggle.
// Server markup: templates/islands/product-actions.html.
// Stock comes from the API on load (the static page never claims stock); the chosen variant comes
// from ProductOptions through the shared store. Add to bag follows the add-to-bag rules
// (availability.ts), adds 1, then opens the added-to-bag popup.
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { canAddToBag, variantStockState, type StockState } from '../../lib/availability';
import { cartLines, store, useShopStore } from '../../lib/store';
import { emailError } from '../../lib/validation';
import { WishlistToggle } from '../wishlist/WishlistToggle';
import { getProductStock } from './product-api/get-product-stock';
import { showError } from './show-error';

// Shown only for a sold-out choice: loaded then.
const NotifyMe = lazy(() => import('./NotifyMe'));

export const schema = z.object({
  productId: z.number(),
  name: z.string(),
  sku: z.string(),
  isGiftCard: z.boolean(),
  price: z.string(),
  salePrice: z.nullable(z.string()),
  image: z.nullable(z.string()),
  colour: z.string(),
  modifiers: z.array(z.object({ id: z.number(), display_name: z.string(), kind: z.string(), required: z.boolean() })),
});

export type ProductActionsProps = z.infer<typeof schema>;
type Modifier = ProductActionsProps['modifiers'][number];

const isEmailField = (m: Modifier): boolean => m.display_name.toLowerCase().includes('email');

/** The message for one modifier's value, or null when fine (filled if required; emails valid). */
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

export default function ProductActions(pageProps: ProductActionsProps): ReactElement {
  const { productId } = pageProps;
  // After a colour change (ProductOptions) the shown colourway's price, image and colour apply.
  const props = useShopStore((state) => state.colourway[productId]?.actions) ?? pageProps;
  const { modifiers } = props;
  const selection = useShopStore((state) => state.selection[productId]);
  const stock = useShopStore((state) => state.stock[productId]);
  const cart = useShopStore((state) => state.cart.data);
  const cartLoading = useShopStore((state) => state.cart.loading);
  const [values, setValues] = useState<Record<number, string>>({});
  const [touched, setTouched] = useState<Record<number, boolean>>({});
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    getProductStock(productId)
      .then((answer) => {
        const map: Record<number, number | null> = {};
        for (const v of answer.variants) map[v.variant_id] = v.available_to_sell;
        store.getState().setStock(productId, map);
      })
      .catch((error: unknown) => void showError(error));
  }, [productId]);

  const variantId = selection?.variantId ?? null;
  const stockState = stock === undefined ? 'unknown' : variantStockState(stock, variantId);
  const available = stock === undefined || variantId === null ? undefined : stock[variantId];
  const inBag = cartLines(cart).filter((l) => l.variant_id === variantId).reduce((n, l) => n + l.quantity, 0);
  const enabled = canAddToBag({
    loading: adding || cartLoading,
    // Until ProductOptions has published the choice, nothing can be added.
    needSize: selection?.needSize ?? true,
    sizeChosen: selection?.sizeId != null,
    needLength: selection?.needLength ?? true,
    lengthChosen: selection?.lengthId != null,
    variantId,
    purchasable: selection?.purchasable ?? false,
    stockState,
    fieldsValid: fieldsValid(modifiers, values),
    inBag,
    available,
  });
  const wishVariant = variantId ?? selection?.colourVariantId ?? null;

  // The button is disabled while it adds, which takes focus off it: the popup is told where it was.
  const add = async (button: HTMLElement): Promise<void> => {
    if (variantId === null) return;
    setAdding(true);
    try {
      const { addFromProductPage } = await import('./shop-actions');
      await addFromProductPage(
        {
          product_id: productId,
          variant_id: variantId,
          option_selections: modifiers
            .filter((m) => (values[m.id] ?? '').trim() !== '')
            .map((m) => ({ option_id: m.id, option_value: (values[m.id] ?? '').trim() })),
        },
        {
          name: props.name,
          imageUrl: props.image,
          price: props.price,
          specialPrice: props.salePrice,
          size: selection?.sizeLabel ?? null,
          colour: props.colour,
          length: selection?.lengthLabel ?? null,
          quantity: 1,
          isGiftCard: props.isGiftCard,
          sku: props.sku,
        },
        button,
      );
    } catch (error) {
      await showError(error);
    } finally {
      setAdding(false);
    }
  };

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
        <button type="button" className="btn btn--primary product-actions__add" disabled={!enabled} onClick={(event) => void add(event.currentTarget)}>
          {adding ? 'Adding...' : stockState === 'sold-out' ? 'Sold Out' : 'Add to bag'}
        </button>
        <WishlistToggle productId={productId} variantId={wishVariant} optionsChosen={variantId !== null} name={props.name} />
      </div>
      {stockState === 'sold-out' && variantId !== null && (
        <Suspense fallback={null}>
          <NotifyMe
            productId={productId}
            variantId={variantId}
            size={selection?.sizeLabel ?? null}
            fit={selection?.needLength === true ? selection.lengthLabel : undefined}
          />
        </Suspense>
      )}
    </div>
  );
}
