// page_view on every page but the excluded types and editors' previews, with login_state; a
// login_state event each time the shopper signs in or out; a view again on a back/forward return.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_COOKIE } from '../features/shell/consent';
import { PREVIEW_COOKIE } from './cookies';
import { followPageViews, pageView } from './page-view';
import { store } from './store';

const events = (): unknown[] => window.dataLayer ?? [];

describe('page views', () => {
  beforeEach(() => {
    document.cookie = `${CONSENT_COOKIE}=analytics; Path=/`;
    window.dataLayer = [];
    document.body.dataset.pageType = 'Product Details Page';
    document.body.dataset.market = 'us';
    document.title = 'Satin Slip Midi Dress | Maison Lark';
    window.history.replaceState(null, '', '/us/p/101/satin-slip-midi-dress/Emerald_Green?size=12');
    store.getState().setSignedIn(false);
  });
  afterEach(() => {
    document.cookie = `${PREVIEW_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
  });

  it('describes the page and the login state', () => {
    expect(pageView(true)).toEqual({
      page_type: 'Product Details Page',
      page_path: '/us/p/101/satin-slip-midi-dress/Emerald_Green?size=12',
      page_title: 'Satin Slip Midi Dress | Maison Lark',
      market: 'us',
      login_state: 1,
    });
    expect(pageView(false)?.login_state).toBe(0);
  });

  it('counts no view of the checkout return page, nor of a page in content preview', () => {
    document.body.dataset.pageType = 'Checkout Return';
    expect(pageView(false)).toBeNull();
    document.body.dataset.pageType = 'Home';
    document.cookie = `${PREVIEW_COOKIE}=x.staging.bigcontent.io~0; Path=/`;
    expect(pageView(false)).toBeNull();
  });

  it('sends the view, a view again from the back/forward cache, and login_state on each change', () => {
    followPageViews();
    expect(events()).toMatchObject([{ event: 'page_view', login_state: 0 }]);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    expect(events()).toHaveLength(1);
    store.getState().setSignedIn(true);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    store.getState().setSignedIn(false);
    expect(events()).toMatchObject([
      { event: 'page_view', login_state: 0 },
      { event: 'login_state', login_state: 1 },
      { event: 'page_view', login_state: 1 },
      { event: 'login_state', login_state: 0 },
    ]);
  });
});
