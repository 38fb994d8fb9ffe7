// The /bag screen: the same lines, subtotal and checkout as the sidebar, on its own page.
import { useEffect, type ReactElement } from 'react';
import { BagContents } from '../components/BagContents';
import { refreshBag } from '../lib/cart';

export default function BagScreen(): ReactElement {
  useEffect(() => {
    // The bag page always shows the cart as it is now, stock included.
    void refreshBag();
  }, []);
  return <BagContents inSidebar={false} />;
}
