// The bottom bar's Basket (static markup wired by the session): disabled while a promotions sync
// is loading — marked aria-disabled, and a click neither opens the bag nor follows the link.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetBrowserState } from '../../testing/setup-dom';
import { resetSessionForTests, startSession } from './session';
import { store } from '../../lib/store';

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

describe('the mobile menu gives way', () => {
  it('closes when a panel opens over it, and on a tap on its backdrop (the <details> itself)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 200 })));
    document.body.innerHTML = '<details class="mnav" open><summary class="mnav__toggle">Menu</summary><nav class="mnav__panel"><a href="/x">X</a></nav></details>';
    await startSession('');
    const menu = document.querySelector('details.mnav') as HTMLDetailsElement;

    store.getState().openPanel('wishlist');
    expect(menu.open).toBe(false);
    store.getState().closePanel();

    menu.open = true;
    (menu.querySelector('a') as HTMLAnchorElement).addEventListener('click', (e) => e.preventDefault());
    (menu.querySelector('a') as HTMLAnchorElement).click();
    expect(menu.open).toBe(true);
    menu.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    expect(menu.open).toBe(false);
  });
});
