// The shopper shell (hydrated by the ShopperShell island, on every page): starts the visitor's
// session (customer, cart, wishlist), shows notifications and the panel that is open (bag,
// wishlist, added-to-bag, search, locale, login), each loaded only when first opened. Server
// markup: templates/islands/shopper-shell.html. It also handles `?logout=true`; the session chunk
// wires the static buttons that open panels.
import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { store, useShopStore } from '../../lib/store';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
});

export type ShopperShellProps = z.infer<typeof schema>;

// The list and its timers load with the first notification; the live region is always there so
// screen readers announce it.
const NotificationList = lazy(() => import('../../components/Notifications'));

// Every panel lives in one chunk, loaded when the first one opens.
const OpenPanel = lazy(() => import('./Panels'));

export default function ShopperShell({ prefix }: ShopperShellProps): ReactElement {
  const panel = useShopStore((state) => state.panel);
  const hasNotes = useShopStore((state) => state.notifications.length > 0);

  useEffect(() => {
    const url = new URL(window.location.href);
    const logout = url.searchParams.get('logout') === 'true';
    if (logout) {
      url.searchParams.delete('logout');
      window.history.replaceState(window.history.state, '', url);
    }
    // The session (customer, cart, wishlist) loads as its own chunk after hydration: nothing on
    // first paint depends on it (the header shows the neutral state until then).
    void import('./session').then(async ({ startSession }) => {
      await startSession(prefix);
      if (logout) await (await import('../account/account')).signOut();
    });
    // A route change (back/forward into this page from the cache) closes whatever was open.
    const onShow = (event: PageTransitionEvent): void => {
      if (event.persisted) store.getState().closePanel();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
    // Once per page: `prefix` is the page's market prefix and never changes after hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="shopper-shell">
      <div className="notifications" role="status" aria-live="polite">
        {hasNotes && (
          <Suspense fallback={null}>
            <NotificationList />
          </Suspense>
        )}
      </div>
      {panel !== null && (
        <Suspense fallback={null}>
          <OpenPanel panel={panel} />
        </Suspense>
      )}
    </div>
  );
}
