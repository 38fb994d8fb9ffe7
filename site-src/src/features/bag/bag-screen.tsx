// The /bag screen: the same lines, subtotal and checkout as the sidebar, on its own page, with the
// reason the checkout sent the shopper back here (`?notice=`).
import { useEffect, useState, type ReactElement } from 'react';
import { BagContents } from './BagContents';
import { refreshBag } from './cart';

/**
 * Why the checkout sent the shopper here. `empty` has no notice of its own: the bag's empty state
 * says exactly 'Your shopping bag is empty', and saying it twice would not make it clearer.
 */
const NOTICES: Record<string, string> = {
  stock: 'The selected quantity exceeds available stock',
};

export default function BagScreen(): ReactElement {
  const [notice] = useState(() => NOTICES[new URLSearchParams(window.location.search).get('notice') ?? ''] ?? null);
  useEffect(() => {
    // The bag page always shows the cart as it is now, stock included.
    void refreshBag();
  }, []);
  return (
    <>
      {notice !== null && (
        <p className="notice notice--error" role="alert">
          {notice}
        </p>
      )}
      <BagContents inSidebar={false} />
    </>
  );
}
