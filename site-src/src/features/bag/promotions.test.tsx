// Opening the bag with promotions on: sync first with `promotionsSyncing` set — the header bag
// icon and Checkout disabled meanwhile — then reload the cart and send view_cart. With the
// flag off the bag never calls the sync. fetch is stubbed at the network boundary.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BagContents } from './BagContents';
import HeaderActions from '../shell/header-actions';
import { resetBrowserState } from '../../testing/setup-dom';
import { openBag } from './promotions';
import { store, type Cart } from '../../lib/store';

function cart(amount: number, promotions: boolean): Cart {
  const line = {
    id: 'l1', product_id: 101, variant_id: 10001, sku: 'S', name: 'Dress', quantity: 1, url: '/p/101/dress/Green', image_url: null,
    is_gift_card: false, list_price: 50, sale_price: 50, extended_list_price: 50, extended_sale_price: 50, options: [],
    available_to_sell: 9, low_stock: false, sold_out: false,
  };
  return {
    id: 'c1', market: 'uk', currency: { code: 'GBP' }, cart_amount: amount, base_amount: 50,
    line_items: { physical_items: [line], digital_items: [] }, total_item_count: 1, promotions_enabled: promotions,
  };
}

type Call = { method: string; url: string };

/** A fetch whose promotions answer waits until `release()`; records every call in order. */
function stubApi(synced: Cart, reloaded: Cart): { calls: Call[]; release: () => void } {
  const calls: Call[] = [];
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url });
    if (url.startsWith('/api/cart/promotions')) {
      await gate;
      return new Response(JSON.stringify(synced), { status: 200 });
    }
    return new Response(JSON.stringify(reloaded), { status: 200 });
  }));
  return { calls, release };
}

function dataLayerEvents(): string[] {
  const layer = (window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? [];
  return layer.map((e) => e.event ?? '');
}

afterEach(() => {
  vi.unstubAllGlobals();
  resetBrowserState();
  delete (window as unknown as { dataLayer?: unknown }).dataLayer;
});

describe('openBag', () => {
  it('syncs, disabling the bag icon and Checkout, then reloads the cart and sends view_cart', async () => {
    window.localStorage.setItem('has-cart-uk', '1');
    act(() => store.getState().setCart(cart(50, true)));
    const api = stubApi(cart(40, true), cart(40, true));
    render(<><HeaderActions prefix="" /><BagContents inSidebar /></>);
    const bagIcon = screen.getByRole('link', { name: 'Bag, 1 item' });
    expect(bagIcon.getAttribute('aria-disabled')).toBeNull();

    let done!: Promise<void>;
    act(() => {
      done = openBag();
    });
    expect(store.getState().promotionsSyncing).toBe(true);
    expect(bagIcon.getAttribute('aria-disabled')).toBe('true');
    expect((screen.getByRole('button', { name: 'Checkout' }) as HTMLButtonElement).disabled).toBe(true);
    // A click on the disabled icon neither opens the bag nor follows the link.
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    fireEvent(bagIcon, click);
    expect(click.defaultPrevented).toBe(true);
    expect(store.getState().panel).toBeNull();
    expect(dataLayerEvents()).not.toContain('view_cart');

    await act(async () => {
      api.release();
      await done;
    });
    expect(store.getState().promotionsSyncing).toBe(false);
    expect(bagIcon.getAttribute('aria-disabled')).toBeNull();
    expect((screen.getByRole('button', { name: 'Checkout' }) as HTMLButtonElement).disabled).toBe(false);
    expect(api.calls.map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual(['POST /api/cart/promotions', 'GET /api/cart']);
    expect(screen.getByText('£40.00')).toBeTruthy();
    // The event's tracking rows load with the first cart event.
    await vi.waitFor(() => expect(dataLayerEvents()).toContain('view_cart'));
  });

  it('does not sync when promotions are off for the bag', async () => {
    window.localStorage.setItem('has-cart-uk', '1');
    act(() => store.getState().setCart(cart(50, false)));
    const api = stubApi(cart(40, false), cart(50, false));
    await act(async () => {
      await openBag();
    });
    expect(api.calls.map((c) => c.method)).toEqual(['GET']);
    expect(store.getState().promotionsSyncing).toBe(false);
    // The event's tracking rows load with the first cart event.
    await vi.waitFor(() => expect(dataLayerEvents()).toContain('view_cart'));
  });

  it('still opens the bag when the promotions service fails', async () => {
    window.localStorage.setItem('has-cart-uk', '1');
    act(() => store.getState().setCart(cart(50, true)));
    vi.stubGlobal('fetch', vi.fn(async (url: string) =>
      url.startsWith('/api/cart/promotions')
        ? new Response(JSON.stringify({ error: { code: 'promotions_unavailable', message: 'The promotions service failed' } }), { status: 502 })
        : new Response(JSON.stringify(cart(50, true)), { status: 200 })));
    await act(async () => {
      await openBag();
    });
    expect(store.getState().promotionsSyncing).toBe(false);
    expect(store.getState().cart.data?.cart_amount).toBe(50);
    // The event's tracking rows load with the first cart event.
    await vi.waitFor(() => expect(dataLayerEvents()).toContain('view_cart'));
  });
});
