//! Shopper shell island, on every page: starts the visitor's session (customer, cart, wishlist),
//! shows notifications and the panel that is open (bag, wishlist, added-to-bag, search, locale,
//! login), each loaded only when first opened. Server markup: templates/islands/shopper-shell.html.
// It also wires the static bottom bar's buttons, the sticky header and `?logout=true`.
import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { signOut, startSession } from '../lib/account';
import { openBag } from '../lib/cart';
import { store, useShopStore, type Panel } from '../lib/store';
import { Notifications } from '../components/Notifications';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
  checkout: z.boolean(),
});

export type ShopperShellProps = z.infer<typeof schema>;

const panels: Partial<Record<Exclude<Panel, null>, ReturnType<typeof lazy>>> = {
  bag: lazy(() => import('../components/BagSidebar')),
  added: lazy(() => import('../components/AddedToBag')),
};

/** Clicks on the static bottom bar and other plain links that open a panel. */
function onDocumentClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target === null) return;
  if (target.closest('[data-open-wishlist]') !== null) {
    event.preventDefault();
    store.getState().openPanel('wishlist');
  } else if (target.closest('[data-bag-link]') !== null) {
    event.preventDefault();
    void openBag();
  } else if (target.closest('[data-account-link]') !== null && !store.getState().customer.signedIn) {
    event.preventDefault();
    store.getState().openPanel('login');
  }
}

function useStickyHeader(): void {
  useEffect(() => {
    const header = document.querySelector('.site-header');
    if (header === null) return;
    const update = (): void => {
      header.classList.toggle('site-header--scrolled', window.scrollY > 0);
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
}

/** The bottom bar's Account link goes to /my-account when signed in (otherwise the login modal). */
function useAccountLinks(prefix: string): void {
  const signedIn = useShopStore((state) => state.customer.signedIn);
  useEffect(() => {
    for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]'))) {
      link.href = signedIn ? `${prefix}/my-account` : `${prefix}/login`;
    }
  }, [signedIn, prefix]);
}

export default function ShopperShell({ prefix }: ShopperShellProps): ReactElement {
  const panel = useShopStore((state) => state.panel);
  useStickyHeader();
  useAccountLinks(prefix);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get('logout') === 'true') {
      url.searchParams.delete('logout');
      window.history.replaceState(window.history.state, '', url);
      void startSession().then(signOut);
    } else {
      void startSession();
    }
    document.addEventListener('click', onDocumentClick);
    // A route change (back/forward into this page from the cache) closes whatever was open.
    const onShow = (event: PageTransitionEvent): void => {
      if (event.persisted) store.getState().closePanel();
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      document.removeEventListener('click', onDocumentClick);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  const Open = panel === null ? null : (panels[panel] ?? null);
  return (
    <div className="shopper-shell">
      <Notifications />
      {Open !== null && (
        <Suspense fallback={null}>
          <Open />
        </Suspense>
      )}
    </div>
  );
}
