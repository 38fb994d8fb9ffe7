// The product options (hydrated by the ProductOptions island): colour (or design) swatch links,
// size and length choices, size guide link.
// Server markup: templates/islands/product-options.html.
// The static page shows no size or length chosen, except that a sole size (or sole length) is chosen
// on both sides. After hydration the choice comes from `?Size=…&Length=…` (labels), every change is
// written back with history.replaceState, and the chosen variant is published in the shared store
// (`selection[productId]`) for the add-to-bag island.
// A colour swatch is a link to that colourway's own page; once hydrated, a plain click shows it in
// place and pushes its URL, and back/forward restore the colour shown. Once live stock is in the
// store, each size/length shows its live availability (sold out, or no variant in that combination)
// and a colour none of whose variants has stock is marked sold out; such values stay selectable so
// the shopper can ask to be notified. Both come from
// product-options-live.ts, loaded after hydration; the rules both run are in selection.ts.
import { useEffect, useState, type ChangeEvent, type ReactElement } from 'react';
import { store, useShopStore } from '../../lib/store';
import { resolveSelection, selectionFromQuery, setQuery, soleId, labelOf, type Choice, type ProductOptionsProps } from './selection';

export { resolveSelection, schema, selectionFromQuery, setQuery, type ProductOptionsProps } from './selection';

type Live = typeof import('./product-options-live');

function writeQuery(params: Record<'Size' | 'Length', string | null>): void {
  const url = new URL(window.location.href);
  setQuery(url, params);
  window.history.replaceState(window.history.state, '', url);
}

/** A colour link that keeps the shopper's size and length when switching colour. */
function colourHref(url: string, sizeLabel: string | null, lengthLabel: string | null): string {
  if (sizeLabel === null && lengthLabel === null) return url;
  const [path = '', query = ''] = url.split('?', 2);
  const params = new URLSearchParams(query);
  if (sizeLabel !== null) params.set('Size', sizeLabel);
  if (lengthLabel !== null) params.set('Length', lengthLabel);
  return `${path}?${params.toString()}`;
}

function Choices(props: {
  productId: number;
  kind: 'size' | 'length';
  legend: string;
  choices: Choice[];
  selectedId: number | null;
  /** Live availability per value id, once live stock is known (see availabilityOf). */
  availability: (id: number) => number | null | undefined;
  onChoose(choice: Choice): void;
  children?: ReactElement | false;
}): ReactElement {
  const { productId, kind } = props;
  return (
    <fieldset className={`product-options__group product-options__group--${kind}`}>
      <legend className="product-options__legend">{props.legend}</legend>
      <div className="product-options__choices">
        {props.choices.map((choice) => {
          const id = `po${productId}-${kind}-${choice.id}`;
          const level = props.availability(choice.id);
          const note = level === 0 ? 'Sold out' : level === null ? 'Unavailable' : null;
          return (
            <span className={note === null ? 'option' : 'option option--sold-out'} key={choice.id}>
              <input
                className="option__input"
                type="radio"
                id={id}
                name={`po${productId}-${kind}`}
                value={choice.label}
                checked={props.selectedId === choice.id}
                aria-describedby={note === null ? undefined : `${id}-note`}
                onChange={(event: ChangeEvent<HTMLInputElement>) => {
                  if (event.target.checked) props.onChoose(choice);
                }}
              />
              <label className="option__label" htmlFor={id}>
                {choice.label}
              </label>
              {note !== null && (
                <span className="visually-hidden" id={`${id}-note`}>
                  {note}
                </span>
              )}
            </span>
          );
        })}
      </div>
      {props.children}
    </fieldset>
  );
}

export default function ProductOptions(pageProps: ProductOptionsProps): ReactElement {
  const { productId } = pageProps;
  // After a colour change the shown colourway's props replace the page's own.
  const props = useShopStore((state) => state.colourway[productId]?.options) ?? pageProps;
  const { sizes, lengths } = props;
  // Undefined during hydration (the store's server snapshot is its initial state).
  const stored = useShopStore((state) => state.selection[productId]);
  const stock = useShopStore((state) => state.stock[productId]);
  const sizeId = stored === undefined ? soleId(sizes) : stored.sizeId;
  const lengthId = stored === undefined ? soleId(lengths) : stored.lengthId;
  const [live, setLive] = useState<Live | null>(null);

  useEffect(() => {
    const chosen = selectionFromQuery(props, window.location.search);
    store.getState().setSelection(productId, resolveSelection(props, chosen.sizeId, chosen.lengthId));
    // Back/forward between colourways (or sizes of one): show what the URL now says, in place.
    const onPopState = (): void => live?.followHistory(productId, pageProps);
    let live: Live | undefined;
    let mounted = true;
    void import('./product-options-live').then((module) => {
      live = module;
      if (mounted) setLive(module);
    });
    window.addEventListener('popstate', onPopState);
    return () => {
      mounted = false;
      window.removeEventListener('popstate', onPopState);
    };
    // The page's props never change for a hydrated island: read the URL once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const availabilityOf =
    (kind: 'size' | 'length') =>
    (id: number): number | null | undefined =>
      stock === undefined || live === null
        ? undefined
        : live.optionAvailability(props.variants, stock, kind, id, { colour: props.colourValueId, size: sizeId, length: lengthId });

  const choose = (kind: 'size' | 'length', choice: Choice): void => {
    const nextSize = kind === 'size' ? choice.id : sizeId;
    const nextLength = kind === 'length' ? choice.id : lengthId;
    store.getState().setSelection(productId, resolveSelection(props, nextSize, nextLength));
    writeQuery(kind === 'size' ? { Size: choice.label, Length: labelOf(lengths, lengthId) } : { Size: labelOf(sizes, sizeId), Length: choice.label });
  };

  const selectedColour = props.colours.find((colour) => colour.selected);
  // Only after hydration (stored set) do colour links carry the choice, so the first render matches.
  const keepSize = stored === undefined ? null : labelOf(sizes, sizeId);
  const keepLength = stored === undefined ? null : labelOf(lengths, lengthId);

  return (
    <div className="product-options">
      {props.colours.length > 0 && (
        <fieldset className="product-options__group product-options__group--colour">
          <legend className="product-options__legend">
            {selectedColour === undefined ? props.colourLabel : `${props.colourLabel}: ${selectedColour.label}`}
          </legend>
          <ul className="product-options__swatches">
            {props.colours.map((colour) => {
              const soldOut = stock !== undefined && live !== null && !live.colourInStock(props.variants, colour.valueId, stock);
              return (
                <li key={colour.url}>
                  <a
                    className={`swatch${colour.selected ? ' swatch--selected' : ''}${soldOut ? ' swatch--sold-out' : ''}`}
                    href={colourHref(colour.url, keepSize, keepLength)}
                    aria-current={colour.selected ? 'page' : undefined}
                    onClick={live === null ? undefined : (event) => live.onSwatchClick(event, productId, colour.selected)}
                  >
                    {colour.swatch !== null && (
                      <span className="swatch__chip" aria-hidden="true" style={{ backgroundColor: colour.swatch }} />
                    )}
                    <span className="swatch__label">{colour.label}</span>
                    {soldOut && <span className="visually-hidden"> (sold out)</span>}
                  </a>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
      {sizes.length > 0 && (
        <Choices
          productId={productId}
          kind="size"
          legend="Size"
          choices={sizes}
          selectedId={sizeId}
          availability={availabilityOf('size')}
          onChoose={(choice) => choose('size', choice)}
        >
          {!props.isGiftCard && props.sizeGuideUrl !== '' && (
            <a className="product-options__size-guide" href={props.sizeGuideUrl}>
              Size guide
            </a>
          )}
        </Choices>
      )}
      {lengths.length > 0 && (
        <Choices
          productId={productId}
          kind="length"
          legend="Length"
          choices={lengths}
          selectedId={lengthId}
          availability={availabilityOf('length')}
          onChoose={(choice) => choose('length', choice)}
        />
      )}
    </div>
  );
}
