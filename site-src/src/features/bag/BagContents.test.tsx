// The bag: attribute order, stock messages, free shipping, Checkout disabled by a sold-out line, and quantity
// changes sent once after a 500 ms pause (fetch stubbed at the network boundary).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setReduced } from './cart';
import { store, type Cart, type LineItem } from '../../lib/store';
import { resetBrowserState } from '../../testing/setup-dom';
import { BagContents, lineAttributes } from './BagContents';

function line(id: string, extra: Partial<LineItem> = {}): LineItem {
  return {
    id, product_id: 101, variant_id: 10001, sku: 'S', name: `Dress ${id}`, quantity: 1, url: '/p/101/dress/Green', image_url: null,
    is_gift_card: false, list_price: 69, sale_price: 41, extended_list_price: 69, extended_sale_price: 41,
    options: [{ name: 'Length', nameId: 3, value: 'Petite', valueId: 3 }, { name: 'Size', nameId: 2, value: '6', valueId: 2 }, { name: 'Color', nameId: 1, value: 'Green', valueId: 1 }],
    available_to_sell: 9, low_stock: false, sold_out: false, ...extra,
  };
}

function cart(lines: LineItem[]): Cart {
  return { id: 'c1', market: 'uk', currency: { code: 'GBP' }, cart_amount: 41, base_amount: 69, line_items: { physical_items: lines, digital_items: [] }, total_item_count: lines.length };
}

describe('BagContents', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(cart([line('a', { quantity: 3 })])), { status: 200 })));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    resetBrowserState();
  });

  it('lists Color, Size, Length in that order; Design and no Size on gift cards', () => {
    expect(lineAttributes(line('a')).map((a) => a.label)).toEqual(['Colour', 'Size', 'Length']);
    const gift = line('g', { is_gift_card: true, options: [{ name: 'Design', nameId: 1, value: 'Balloons', valueId: 1 }, { name: 'Size', nameId: 2, value: '£25', valueId: 2 }] });
    expect(lineAttributes(gift)).toEqual([{ label: 'Design', value: 'Balloons' }]);
  });

  it('shows the empty state', () => {
    render(<BagContents inSidebar />);
    expect(screen.getByText('Your shopping bag is empty')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back shopping' }).getAttribute('href')).toBe('/');
  });

  it('shows stock messages, SUBTOTAL, and disables Checkout for a sold-out line', () => {
    act(() => store.getState().setCart(cart([line('a', { low_stock: true }), line('b', { sold_out: true })])));
    render(<BagContents inSidebar />);
    expect(screen.getByText('There are less than 5 of these left')).toBeTruthy();
    expect(screen.getByText('Sold Out')).toBeTruthy();
    expect(screen.getByText('SUBTOTAL')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Checkout' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'View Bag' }).getAttribute('href')).toBe('/bag');
  });

  it('says SHIPPING FREE only when the engine granted free shipping on the bag', () => {
    act(() => store.getState().setCart(cart([line('a')])));
    const { container, unmount } = render(<BagContents inSidebar />);
    expect(container.querySelector('[data-free-shipping]')).toBeNull();
    unmount();
    act(() => store.getState().setCart({ ...cart([line('a')]), free_shipping: true }));
    render(<BagContents inSidebar={false} />);
    const row = document.querySelector('[data-free-shipping]');
    expect(row?.textContent).toBe('SHIPPING FREE');
  });

  it('sends one quantity change 500 ms after the last click', async () => {
    act(() => store.getState().setCart(cart([line('a')])));
    render(<BagContents inSidebar={false} />);
    const more = screen.getByRole('button', { name: 'Increase quantity' });
    fireEvent.click(more);
    fireEvent.click(more);
    await act(async () => {
      vi.advanceTimersByTime(499);
    });
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(url).toBe('/api/cart/items/a?market=uk');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({ quantity: 3 });
  });
});

// Issue 17 item 2: over stock the field shows what the bag holds and the line says so once; the
// bag's own reductions and sold-out lines say so on the line.
describe('BagContents stock', () => {
  const conflict = (): Response =>
    new Response(JSON.stringify({ error: { code: 'insufficient_stock', message: 'The selected quantity exceeds available stock' } }), { status: 409 });
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    resetBrowserState();
  });

  it('never offers more than is left, and says so once on the line, with no notification', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(cart([line('a', { quantity: 3, available_to_sell: 3 })])), { status: 200 })));
    act(() => store.getState().setCart(cart([line('a', { quantity: 2, available_to_sell: 3 })])));
    render(<BagContents inSidebar={false} />);
    const more = screen.getByRole('button', { name: 'Increase quantity' });
    for (let i = 0; i < 3; i += 1) fireEvent.click(more);
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    expect(document.querySelector('.qty__value')?.textContent).toBe('Qty: 3');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['The selected quantity exceeds available stock']);
    expect(vi.mocked(fetch).mock.calls.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ quantity: 3 }]);
    expect(store.getState().notifications).toEqual([]);
  });

  it('shows again what the bag holds when the API refuses the number for stock', async () => {
    const held = cart([line('a', { quantity: 2, available_to_sell: 9 })]);
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => (init?.method === 'PUT' ? conflict() : new Response(JSON.stringify(held), { status: 200 }))));
    window.localStorage.setItem('has-cart-uk', '1');
    act(() => store.getState().setCart(held));
    render(<BagContents inSidebar={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(document.querySelector('.qty__value')?.textContent).toBe('Qty: 3');
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    await act(async () => {
      await vi.runAllTimersAsync();
    });
    expect(document.querySelector('.qty__value')?.textContent).toBe('Qty: 2');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['The selected quantity exceeds available stock']);
    expect(store.getState().notifications).toEqual([]);
  });

  it('marks a line the bag reduced, and a sold-out line that must leave before checkout', () => {
    act(() => {
      store.getState().setCart(cart([line('a', { quantity: 3, available_to_sell: 3, low_stock: true }), line('b', { sold_out: true, available_to_sell: 0 })]));
      setReduced({ a: 5 });
    });
    render(<BagContents inSidebar={false} />);
    const [reduced, soldOut] = Array.from(document.querySelectorAll('.bag-line'));
    expect(reduced?.querySelector('.bag-line__stock')?.textContent).toBe('Quantity reduced from 5 to 3');
    expect(soldOut?.querySelector('.bag-line__stock')?.textContent).toBe('Sold Out');
    expect(soldOut?.querySelector('.qty')).toBeNull();
    const checkout = screen.getByRole('button', { name: 'Checkout' }) as HTMLButtonElement;
    expect(checkout.disabled).toBe(true);
    expect(document.getElementById(checkout.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Sold-out items must be removed from your bag before checkout.');
  });

  it("shows each line's picture at the widths that fit its box", () => {
    act(() => store.getState().setCart(cart([line('a', { image_url: '/media/products/274674_Emerald_Green_1.webp' })])));
    render(<BagContents inSidebar={false} />);
    const img = document.querySelector('.bag-line__image img');
    expect(img?.getAttribute('srcset')).toBe(
      '/media/products/274674_Emerald_Green_1.webp?w=200&fmt=auto&qlt=default 200w, /media/products/274674_Emerald_Green_1.webp?w=415&fmt=auto&qlt=default 415w',
    );
    expect(img?.getAttribute('sizes')).toBe('90px');
  });
});
