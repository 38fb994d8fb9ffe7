// The added-to-bag popup: what was added, View Bag (with the count) and Checkout. Closes
// on an outside click, the close button, Escape or a route change (the shell closes panels then).
import type { ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { checkoutEntry } from './cart';
import { store, useShopStore } from '../../lib/store';
import { Modal } from '../../components/Modal';

const close = (): void => store.getState().closePanel('added');

export default function AddedToBag(): ReactElement | null {
  const added = useShopStore((state) => state.added);
  const count = useShopStore((state) => state.cart.count);
  const opener = useShopStore((state) => state.opener);
  const signedIn = useShopStore((state) => state.customer.signedIn);
  if (added === null) return null;
  const prefix = prefixOf(marketOf());
  const rows: [string, string | null][] = [
    ['Size', added.isGiftCard ? null : added.size],
    [added.isGiftCard ? 'Design' : 'Colour', added.colour],
    ['Qty', added.isGiftCard ? String(added.quantity) : null],
    ['Length', added.length],
  ];
  return (
    <Modal title="Added to bag" variant="popup" onClose={close} opener={opener}>
      <div className="added">
        {added.imageUrl !== null && <img className="added__image" src={added.imageUrl} alt="" width="90" height="120" />}
        <div className="added__body">
          <p className="added__name">{added.name}</p>
          <p className="added__price">
            {added.specialPrice !== null ? (
              <>
                <s className="price__was">{added.price}</s> <span className="price__now price__now--sale">{added.specialPrice}</span>
              </>
            ) : (
              <span className="price__now">{added.price}</span>
            )}
          </p>
          <dl className="added__attrs">
            {rows
              .filter((row): row is [string, string] => row[1] !== null)
              .map(([label, value]) => (
                <div key={label}>
                  <dt>{label}:</dt> <dd>{value}</dd>
                </div>
              ))}
          </dl>
        </div>
      </div>
      <div className="added__actions">
        <a className="btn btn--secondary" href={`${prefix}/bag`}>
          View Bag ({count})
        </a>
        <a className="btn btn--primary" href={checkoutEntry(prefix, signedIn)}>
          Checkout
        </a>
      </div>
    </Modal>
  );
}
