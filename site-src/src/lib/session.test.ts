// The bottom bar's Basket (static markup wired by the session): disabled while a promotions sync
// is loading (§2) — marked aria-disabled, and a click neither opens the bag nor follows the link.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetBrowserState } from '../testing/setup-dom';
import { resetSessionForTests, startSession } from './session';
import { store } from './store';

afterEach(() => {
  vi.unstubAllGlobals();
  resetSessionForTests();
  resetBrowserState();
});

describe('bottom bar Basket during a promotions sync', () => {
  it('is disabled while syncing and opens the bag again afterwards', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 200 })));
    document.body.innerHTML = '<nav class="bottom-bar"><a class="bottom-bar__item" href="/bag" data-bag-link><span>Basket</span></a></nav>';
    await startSession('');
    const basket = document.querySelector('[data-bag-link]') as HTMLAnchorElement;

    store.getState().setPromotionsSyncing(true);
    expect(basket.getAttribute('aria-disabled')).toBe('true');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    basket.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(store.getState().panel).toBeNull();

    store.getState().setPromotionsSyncing(false);
    expect(basket.getAttribute('aria-disabled')).toBeNull();
    basket.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(store.getState().panel).toBe('bag');
  });
});
