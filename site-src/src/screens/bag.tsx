// The /bag screen: the same lines, subtotal and checkout as the sidebar, on its own page.
import { useEffect, type ReactElement } from 'react';
import { BagContents } from '../components/BagContents';
import { startSession } from '../lib/account';
import { loadCart } from '../lib/cart';
import { track } from '../lib/analytics';
import { cartLines } from '../lib/store';

export default function BagScreen(): ReactElement {
  useEffect(() => {
    // The bag page always shows the cart as it is now, stock included.
    void startSession()
      .then(loadCart)
      .then((cart) => track('view_cart', { items: cartLines(cart).map((l) => ({ sku: l.sku, quantity: l.quantity })) }))
      .catch(() => undefined);
  }, []);
  return <BagContents inSidebar={false} />;
}
