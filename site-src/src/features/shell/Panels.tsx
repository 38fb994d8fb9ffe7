// The shell's panels by name, in one lazily loaded chunk (see features/shell/shopper-shell.tsx).
import type { ReactElement } from 'react';
import type { Panel } from '../../lib/store';
import AddedToBag from '../bag/AddedToBag';
import BagSidebar from '../bag/BagSidebar';
import LocaleOverlay from './LocaleOverlay';
import LoginModal from '../account/LoginModal';
import NewsletterModal from './NewsletterModal';
import SearchOverlay from '../search/SearchOverlay';
import SizeGuideModal from '../product/SizeGuideModal';
import WishlistSidebar from '../wishlist/WishlistSidebar';

export default function Panels({ panel }: { panel: Exclude<Panel, null> }): ReactElement | null {
  switch (panel) {
    case 'bag':
      return <BagSidebar />;
    case 'added':
      return <AddedToBag />;
    case 'login':
      return <LoginModal />;
    case 'wishlist':
      return <WishlistSidebar />;
    case 'locale':
      return <LocaleOverlay />;
    case 'search':
      return <SearchOverlay />;
    case 'newsletter':
      return <NewsletterModal />;
    case 'size-guide':
      return <SizeGuideModal />;
    default:
      return null;
  }
}
