// ProductActions: live stock from the API (fetch stubbed at the network boundary), the add-to-bag
// rules with the choice from the shared store, and the gift-card fields' validation.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store, type ProductSelection } from '../../lib/store';
import { productActionsFixtures } from '../../testing/fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import ProductActions from './product-actions';

const dress = productActionsFixtures.dress!;
const giftCard = productActionsFixtures.giftCard!;

function stockAnswer(levels: Record<number, number | null>): Response {
  const variants = Object.entries(levels).map(([id, n]) => ({ variant_id: Number(id), available_to_sell: n }));
  return new Response(JSON.stringify({ variants }), { status: 200, headers: { 'content-type': 'application/json' } });
}

function choose(productId: number, variantId: number | null, extra: Partial<ProductSelection> = {}): void {
  act(() =>
    store.getState().setSelection(productId, {
      sizeId: variantId === null ? null : 1, lengthId: variantId === null ? null : 2, variantId, purchasable: true,
      sizeLabel: '10', lengthLabel: 'Regular', needSize: true, needLength: true, colourVariantId: 501, ...extra,
    }),
  );
}

const addButton = (): HTMLButtonElement => screen.getByRole('button', { name: /Add to bag|Sold Out/ });

describe('ProductActions', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn(async () => stockAnswer({ 501: 9, 502: 0, 503: 3, 504: null })));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetBrowserState();
  });

  it('asks the API for live stock and stays disabled until a size and length are chosen', async () => {
    render(<ProductActions {...dress} />);
    await waitFor(() => expect(store.getState().stock[dress.productId]).toBeDefined());
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/stock/products/1201?market=uk');
    expect(addButton().disabled).toBe(true);
    choose(dress.productId, null);
    expect(addButton().disabled).toBe(true);
    choose(dress.productId, 501);
    expect(addButton().disabled).toBe(false);
  });

  it('shows Sold Out and the notify-me form for a sold-out variant, and the low-stock message', async () => {
    render(<ProductActions {...dress} />);
    await waitFor(() => expect(store.getState().stock[dress.productId]).toBeDefined());
    choose(dress.productId, 502);
    expect(addButton().textContent).toBe('Sold Out');
    expect(addButton().disabled).toBe(true);
    expect(screen.getByText('Out of stock')).toBeTruthy();
    expect(await screen.findByLabelText('Email me when it is back in stock')).toBeTruthy();
    choose(dress.productId, 503);
    expect(screen.getByText('There are less than 5 of these left')).toBeTruthy();
    expect(addButton().disabled).toBe(false);
  });

  it('needs valid recipient and sender emails on a gift card', async () => {
    render(<ProductActions {...giftCard} />);
    await waitFor(() => expect(store.getState().stock[giftCard.productId]).toBeDefined());
    choose(giftCard.productId, 504, { needLength: false, lengthId: null });
    expect(addButton().disabled).toBe(true);
    const recipient = screen.getByLabelText('Recipient email *');
    fireEvent.change(recipient, { target: { value: 'friend@' } });
    fireEvent.blur(recipient);
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    fireEvent.change(recipient, { target: { value: 'friend@example.com' } });
    expect(addButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Your email *'), { target: { value: 'me@example.co.uk' } });
    expect(addButton().disabled).toBe(false);
  });

  // Issue 17 item 3: the colour's first variant stands for a wish without a size, marked as such.
  it('saves a wish with nothing chosen as the colour only, and a chosen size as chosen', async () => {
    render(<ProductActions {...dress} />);
    await waitFor(() => expect(store.getState().stock[dress.productId]).toBeDefined());
    const heart = screen.getByRole('button', { name: /^Wishlist:/ });
    choose(dress.productId, null);
    fireEvent.click(heart);
    await waitFor(() => expect(store.getState().wishlist.items).toHaveLength(1));
    expect(store.getState().wishlist.items[0]).toMatchObject({ variant_id: 501, options_chosen: false });
    fireEvent.click(heart);
    await waitFor(() => expect(store.getState().wishlist.items).toHaveLength(0));
    choose(dress.productId, 503);
    fireEvent.click(heart);
    await waitFor(() => expect(store.getState().wishlist.items).toHaveLength(1));
    expect(store.getState().wishlist.items[0]).toMatchObject({ variant_id: 503, options_chosen: true });
  });
});
