// The bag's lines, subtotal and buttons, shared by the sidebar and /bag.
// Everything shown comes from the API's cart: prices, totals and live stock per line.
import { lazy, Suspense, useEffect, useRef, useState, type ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { lineAttributes } from '../../lib/line-options';
import { checkoutBlocked, checkoutEntry, heldQuantity, quantityLimit, removeItem, setQuantity } from './cart';
import { bagLineState, lineStockText, REMOVE_SOLD_OUT, STOCK_EXCEEDED } from '../../lib/stock-copy';
import { cartLines, store, useShopStore, type LineItem } from '../../lib/store';
import { LineImage } from '../../components/LineImage';

export const QUANTITY_DEBOUNCE_MS = 500;
// The express button (and the wallet sequence) load only for a bag whose API has it configured.
const ExpressCheckoutButton = lazy(() => import('./ExpressCheckoutButton'));
export { lineAttributes };

/**
 * Quantity stepper: shows the shopper's number at once and sends it once they pause for 500 ms;
 * it never offers more than is left, and whenever the bag refuses a number it shows again what the
 * bag holds. Asking for more than is left says so once, on the line.
 */
function Quantity({ line, onExceeded }: { line: LineItem; onExceeded: (exceeded: boolean) => void }): ReactElement {
  const [wanted, setWanted] = useState(line.quantity);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setWanted(line.quantity), [line.quantity]);
  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);
  const change = (next: number): void => {
    if (next > quantityLimit(line)) {
      onExceeded(true);
      return;
    }
    onExceeded(false);
    const quantity = Math.max(1, next);
    setWanted(quantity);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      if (quantity === line.quantity) return;
      void setQuantity(line, quantity).then((result) => {
        if (result === 'ok') return;
        setWanted(heldQuantity(line));
        if (result === 'stock') onExceeded(true);
      });
    }, QUANTITY_DEBOUNCE_MS);
  };
  return (
    <div className="qty" role="group" aria-label={`Quantity of ${line.name}`}>
      <button type="button" className="qty__step" aria-label="Decrease quantity" disabled={wanted <= 1} onClick={() => change(wanted - 1)}>
        −
      </button>
      <span className="qty__value" aria-live="polite">
        <span className="visually-hidden">Qty: </span>
        {wanted}
      </span>
      <button type="button" className="qty__step" aria-label="Increase quantity" onClick={() => change(wanted + 1)}>
        +
      </button>
    </div>
  );
}

function lineHref(url: string, prefix: string): string {
  return prefix !== '' && !url.startsWith(`${prefix}/`) ? `${prefix}${url}` : url;
}

function Line({ line, currency, prefix }: { line: LineItem; currency: string; prefix: string }): ReactElement {
  const onSale = line.sale_price < line.list_price;
  const reducedFrom = useShopStore((state) => state.cart.reduced?.[line.id]);
  const [exceeded, setExceeded] = useState(false);
  const stock = lineStockText(bagLineState(line, reducedFrom), line.quantity, reducedFrom ?? null);
  return (
    <li className="bag-line" data-line-id={line.id}>
      <a className="bag-line__image" href={lineHref(line.url, prefix)} tabIndex={-1} aria-hidden="true">
        <LineImage src={line.image_url} />
      </a>
      <div className="bag-line__body">
        <a className="bag-line__name" href={lineHref(line.url, prefix)}>
          {line.name}
        </a>
        <dl className="bag-line__attrs">
          {lineAttributes(line).map((attr) => (
            <div key={attr.label}>
              <dt>{attr.label}:</dt> <dd>{attr.value}</dd>
            </div>
          ))}
        </dl>
        {/* A sold-out line cannot change quantity: it can only leave the bag. */}
        {!line.sold_out && <Quantity line={line} onExceeded={setExceeded} />}
        {exceeded && (
          <p className="bag-line__stock" role="alert">
            {STOCK_EXCEEDED}
          </p>
        )}
        <p className="bag-line__price">
          {onSale && <s className="price__was">{formatMoney(line.extended_list_price, currency)}</s>}{' '}
          <span className={onSale ? 'price__now price__now--sale' : 'price__now'}>{formatMoney(line.extended_sale_price, currency)}</span>
        </p>
        {stock !== null && <p className={line.sold_out ? 'bag-line__stock bag-line__stock--out' : 'bag-line__stock'}>{stock}</p>}
        <button type="button" className="bag-line__remove link-button" onClick={() => void removeItem(line)}>
          Remove<span className="visually-hidden"> {line.name}</span>
        </button>
      </div>
    </li>
  );
}

export function BagContents({ inSidebar }: { inSidebar: boolean }): ReactElement {
  const cart = useShopStore((state) => state.cart.data);
  const loading = useShopStore((state) => state.cart.loading);
  const syncing = useShopStore((state) => state.promotionsSyncing);
  const [checkingOut, setCheckingOut] = useState(false);
  const prefix = prefixOf(marketOf());
  const lines = cartLines(cart);
  if (cart === null || lines.length === 0) {
    return (
      <div className="bag-empty">
        <p className="bag-empty__text">Your shopping bag is empty</p>
        <a className="btn btn--primary" href={prefix === '' ? '/' : prefix} onClick={() => inSidebar && store.getState().closePanel('bag')}>
          Go back shopping
        </a>
      </div>
    );
  }
  const currency = cart.currency.code;
  const blocked = checkoutBlocked(cart, loading, syncing) || checkingOut;
  const soldOut = lines.some((line) => line.sold_out);
  // The sidebar and /bag can both be on screen: each its own id.
  const soldOutId = inSidebar ? 'bag-sold-out-sidebar' : 'bag-sold-out';
  return (
    <div className="bag" aria-busy={loading || syncing}>
      <ul className="bag__lines">
        {lines.map((line) => (
          <Line key={line.id} line={line} currency={currency} prefix={prefix} />
        ))}
      </ul>
      <div className="bag__summary">
        <p className="bag__subtotal">
          <span>SUBTOTAL</span> <span data-subtotal>{formatMoney(cart.cart_amount, currency)}</span>
        </p>
        {/* The engine's free shipping (copy in docs/decisions.md): said as a fact about this bag,
            since the shipping cost itself is only known at checkout. */}
        {cart.free_shipping === true && (
          <p className="bag__free-shipping" data-free-shipping>
            <span>SHIPPING</span> <span>FREE</span>
          </p>
        )}
        {soldOut && (
          <p className="bag__sold-out" id={soldOutId}>
            {REMOVE_SOLD_OUT}
          </p>
        )}
        <button
          type="button"
          className="btn btn--primary bag__checkout"
          disabled={blocked}
          aria-describedby={soldOut ? soldOutId : undefined}
          onClick={() => {
            setCheckingOut(true);
            window.location.assign(checkoutEntry(prefix));
          }}
        >
          {checkingOut ? 'Loading...' : 'Checkout'}
        </button>
        {cart.express_checkout != null && (
          <Suspense fallback={null}>
            <ExpressCheckoutButton cart={cart} prefix={prefix} disabled={blocked} />
          </Suspense>
        )}
        {inSidebar && (
          <a className="btn btn--secondary bag__view" href={`${prefix}/bag`}>
            View Bag
          </a>
        )}
      </div>
    </div>
  );
}
