// The start of every visit, loaded after hydration by the shopper shell: who is this (the API,
// not the cookie hint, decides), what is in their bag and their wishlist; and the page behaviour
// that can wait for it (sticky header, account links, the mobile menu giving way to panels).
import { loadCustomer } from '../account/account';
import { loadCart } from '../bag/cart';
import { flushQueue, keepQueue, readConsent } from './consent';
import { isSignedInHint } from '../../lib/cookies';
import { store, type Panel } from '../../lib/store';
import { followNewsletter } from './newsletter';
import { followPageViews } from '../../lib/page-view';
import { followPrefetch } from './prefetch';
import { followLoads } from './progress';
import { getGeo } from './shell-api/get-geo';
import { loadWishlist } from '../wishlist/wishlist';

let started: Promise<void> | null = null;

/** The bottom bar's Account link goes to /my-account when signed in (otherwise the login modal). */
function followAccountLinks(prefix: string): void {
  const update = (signedIn: boolean): void => {
    for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]'))) {
      link.href = signedIn ? `${prefix}/my-account` : `${prefix}/login`;
    }
  };
  update(store.getState().customer.signedIn);
  store.subscribe((state, previous) => {
    if (state.customer.signedIn !== previous.customer.signedIn) update(state.customer.signedIn);
  });
}

/** The bottom bar's Basket is marked disabled while a promotions sync is loading. */
function followPromotionsSync(): void {
  store.subscribe((state, previous) => {
    if (state.promotionsSyncing === previous.promotionsSyncing) return;
    for (const link of Array.from(document.querySelectorAll('[data-bag-link]'))) {
      if (state.promotionsSyncing) link.setAttribute('aria-disabled', 'true');
      else link.removeAttribute('aria-disabled');
    }
  });
}

/**
 * Static controls that open a panel (bottom bar, header wishlist, locale button, size guide).
 * Without JavaScript they stay links or a <details> list. Account opens the login modal only when signed out.
 */
const OPENERS: [string, Panel][] = [
  ['.locale__button', 'locale'],
  ['[data-open-wishlist]', 'wishlist'],
  ['[data-bag-link]', 'bag'],
  ['[data-account-link]', 'login'],
  // The product page's Size guide: the guide in a dialog, the page kept as it is.
  ['.product-options__size-guide', 'size-guide'],
];

function openFromStaticControl(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const target = event.target instanceof Element ? event.target : null;
  const opener = OPENERS.find(([selector]) => target?.closest(selector));
  if (opener === undefined || (opener[1] === 'login' && store.getState().customer.signedIn)) return;
  event.preventDefault();
  // The Basket is disabled (and does nothing) while a promotions sync is loading.
  if (opener[1] === 'bag' && store.getState().promotionsSyncing) return;
  store.getState().openPanel(opener[1]);
}

/**
 * The mobile menu (a <details>, either variant) closes when a panel (bag, wishlist, search, login)
 * opens over it, and on a tap on its backdrop (the element's own ::before, so the tap lands on
 * the <details> itself). Closing the element fires its toggle, which the menu island follows.
 */
function followMobileMenu(): void {
  const close = (): void => {
    for (const menu of Array.from(document.querySelectorAll<HTMLDetailsElement>('details.mnav[open]'))) menu.open = false;
  };
  store.subscribe((state, previous) => {
    if (state.panel !== null && state.panel !== previous.panel) close();
  });
  document.addEventListener('click', (event) => {
    if (event.target instanceof HTMLDetailsElement && event.target.matches('details.mnav[open]')) close();
  });
}

/** The header takes its sticky style once the page is scrolled. */
function followScroll(): void {
  const header = document.querySelector('.site-header');
  if (header === null) return;
  const update = (): void => {
    header.classList.toggle('site-header--scrolled', window.scrollY > 0);
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
}

export const LOCALE_PROMPTED = 'locale-prompted';

/**
 * When the visitor's locale (cookie, else geo country) is not this site, the locale overlay opens —
 * once per browser session, and never on checkout pages (no locale button there). When it is this
 * site (an unknown country included), it never opens by itself.
 */
async function promptLocale(prefix: string): Promise<void> {
  if (document.querySelector('.locale__button') === null || window.sessionStorage.getItem(LOCALE_PROMPTED) !== null) return;
  window.sessionStorage.setItem(LOCALE_PROMPTED, '1');
  const { detectLocale, isCurrentSite, readLocaleCookie } = await import('./locale');
  const geo = await getGeo().catch(() => ({ country: null }));
  if (!isCurrentSite(detectLocale(readLocaleCookie(), geo.country, prefix), prefix)) store.getState().openPanel('locale');
}

/**
 * Analytics waits for consent: without a stored choice the cookie banner asks (not on /cookies,
 * which has the choices itself); with consent, events queued on earlier pages are sent.
 */
async function askConsent(prefix: string): Promise<void> {
  keepQueue();
  if (readConsent() !== null) {
    flushQueue();
    return;
  }
  if (window.location.pathname === `${prefix}/cookies`) return;
  (await import('./cookie-banner')).mountCookieBanner(prefix);
}

/** Once per page: who is this, what is in their bag and wishlist. Every island may call it. */
export function startSession(prefix = ''): Promise<void> {
  started ??= (async () => {
    followAccountLinks(prefix);
    followPromotionsSync();
    followScroll();
    followMobileMenu();
    followLoads();
    followPrefetch();
    // The cart events' tracking rows, ready before the first event (a page may be left right after).
    void import('../../lib/cart-tracking');
    document.addEventListener('click', openFromStaticControl);
    // The static panel buttons work from here on (browser tests wait for this mark).
    document.documentElement.setAttribute('data-shop-ready', '');
    void promptLocale(prefix);
    void askConsent(prefix);
    followNewsletter();
    store.getState().setSignedIn(isSignedInHint());
    followPageViews();
    if (store.getState().customer.signedIn) await loadCustomer().catch(() => undefined);
    await Promise.all([loadCart().catch(() => undefined), loadWishlist().catch(() => undefined)]);
  })();
  return started;
}

/** Tests only: forget that the session was started. */
export function resetSessionForTests(): void {
  started = null;
}
