// The page_view and login_state analytics events. Every page load is a route change on a static
// site, and so is a page the browser restores from its back/forward cache. Loaded with the session.
import { track } from './analytics';
import { PREVIEW_COOKIE, readCookie } from './cookies';
import { store } from './store';

/**
 * Page types that are not counted as views: the checkout's return page only passes the shopper on
 * (to the confirmation, or back to payment), so counting it would count the step twice.
 */
export const EXCLUDED_PAGE_TYPES: readonly string[] = ['Checkout Return'];

/** A page an editor sees in content preview (the visualisation route, or preview mode): no shopper's. */
export function isPreview(path: string = window.location.pathname): boolean {
  return path.startsWith('/amplience-visualization/') || (readCookie(PREVIEW_COOKIE) ?? '') !== '';
}

/** The page_view event of this page, or null for an excluded one. */
export function pageView(signedIn: boolean): Record<string, unknown> | null {
  const pageType = document.body.dataset.pageType ?? '';
  const { pathname, search } = window.location;
  if (EXCLUDED_PAGE_TYPES.includes(pageType) || isPreview(pathname)) return null;
  return {
    page_type: pageType,
    page_path: pathname + search,
    page_title: document.title,
    market: document.body.dataset.market ?? '',
    login_state: signedIn ? 1 : 0,
  };
}

function trackPageView(): void {
  const event = pageView(store.getState().customer.signedIn);
  if (event !== null) track('page_view', event);
}

/**
 * page_view now and on every return from the back/forward cache; login_state 1 / 0 each time the
 * shopper signs in or out (or the API corrects a stale signed-in hint).
 */
export function followPageViews(): void {
  trackPageView();
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) trackPageView();
  });
  store.subscribe((state, previous) => {
    if (state.customer.signedIn !== previous.customer.signedIn) track('login_state', { login_state: state.customer.signedIn ? 1 : 0 });
  });
}
