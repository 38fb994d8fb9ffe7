// The bag's express button appears only when the API configures express checkout and the
// browser's wallet (a fake `ApplePaySession`, the outside service) can pay; it is disabled with
// Checkout by a sold-out line.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { store, type Cart } from '../../lib/store';
import { resetBrowserState } from '../../testing/setup-dom';
import { BagContents } from './BagContents';

function cart(express: boolean, soldOut = false): Cart {
  const line = {
    id: 'l1', product_id: 101, variant_id: 10001, sku: 'S', name: 'Dress', quantity: 1, url: '/p/101/dress/Green', image_url: null,
    is_gift_card: false, list_price: 50, sale_price: 50, extended_list_price: 50, extended_sale_price: 50, options: [],
    available_to_sell: soldOut ? 0 : 9, low_stock: false, sold_out: soldOut,
  };
  return {
    id: 'c1', market: 'uk', currency: { code: 'GBP' }, cart_amount: 50, base_amount: 50,
    line_items: { physical_items: [line], digital_items: [] }, total_item_count: 1,
    express_checkout: express ? { merchant_label: 'Maison Lark', country_code: 'GB' } : null,
  };
}

function setWallet(canPay: boolean | null): void {
  const w = window as unknown as { ApplePaySession?: unknown };
  if (canPay === null) delete w.ApplePaySession;
  else w.ApplePaySession = Object.assign(function ApplePaySession() {}, { canMakePayments: () => canPay, STATUS_SUCCESS: 0, STATUS_FAILURE: 1 });
}

afterEach(() => {
  setWallet(null);
  resetBrowserState();
});

describe('express checkout button', () => {
  it('shows when configured and the wallet can pay', async () => {
    setWallet(true);
    act(() => store.getState().setCart(cart(true)));
    render(<BagContents inSidebar />);
    const button = await screen.findByRole('button', { name: 'Check out with Apple Pay' });
    expect(button).toHaveProperty('disabled', false);
  });

  it('is disabled with Checkout when a line is sold out', async () => {
    setWallet(true);
    act(() => store.getState().setCart(cart(true, true)));
    render(<BagContents inSidebar />);
    expect(await screen.findByRole('button', { name: 'Check out with Apple Pay' })).toHaveProperty('disabled', true);
  });

  it('is absent when not configured, without a wallet, or when the wallet cannot pay', async () => {
    for (const [express, wallet] of [[false, true], [true, null], [true, false]] as const) {
      setWallet(wallet);
      act(() => store.getState().setCart(cart(express)));
      const view = render(<BagContents inSidebar />);
      await screen.findByRole('button', { name: 'Checkout' });
      // Let the lazy chunk and its effect run.
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(screen.queryByRole('button', { name: 'Check out with Apple Pay' })).toBeNull();
      view.unmount();
    }
  });
});
