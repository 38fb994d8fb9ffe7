// The payment return page: it finishes the payment the redirect brought back, or says what went
// wrong with a way back to the payment step.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ID, replacedWith, stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import { cartHintKey } from '../bag/cart';
import { resetSessionForTests, startSession } from '../shell/session';
import { rememberPending } from './attempt';
import ReturnScreen from './return-screen';

afterEach(() => {
  cleanup();
  resetSessionForTests();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  resetBrowserState();
});

describe('checkout return', () => {
  it('goes to the confirmation once payment-details answers 201, leaving itself out of the history', async () => {
    stubLocation(`/checkout/return?order_id=${'b'.repeat(32)}`);
    rememberPending({ checkoutId: ID, orderId: 'b'.repeat(32) });
    stubFetch({ [`POST /api/checkout/${ID}/payment-details`]: { status: 201, body: { status: 'Confirmed', order_id: 'b'.repeat(32), order_number: '1', checkout_id: ID, confirmation_path: `/order-confirmation/${ID}/${'b'.repeat(32)}` } } });
    render(<ReturnScreen prefix="" />);
    expect(screen.getByText('Loading...')).toBeTruthy();
    await waitFor(() => expect(replacedWith()).toEqual([`/order-confirmation/${ID}/${'b'.repeat(32)}`]));
  });

  it("finishes the payment only after the page's session has read the cart, which the order then closes", async () => {
    stubLocation(`/checkout/return?order_id=${'b'.repeat(32)}`);
    rememberPending({ checkoutId: ID, orderId: 'b'.repeat(32) });
    window.localStorage.setItem(cartHintKey('uk'), '1');
    const cart = { id: 'a'.repeat(32), market: 'uk', currency: { code: 'GBP' }, cart_amount: 0, base_amount: 0, line_items: { physical_items: [], digital_items: [] }, total_item_count: 0 };
    let cartAnswered = false;
    let cartReadBeforePayment: boolean | null = null;
    const calls = stubFetch({
      // The shell's cart read (the header's bag) is slow; the payment must not overtake it.
      'GET /api/cart': async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        cartAnswered = true;
        return { status: 200, body: cart };
      },
      'GET /api/wishlists': { status: 200, body: { data: [] } },
      [`POST /api/checkout/${ID}/payment-details`]: () => {
        cartReadBeforePayment = cartAnswered;
        return { status: 201, body: { status: 'Confirmed', order_id: 'b'.repeat(32), order_number: '1', checkout_id: ID, confirmation_path: `/order-confirmation/${ID}/${'b'.repeat(32)}` } };
      },
    });
    render(<ReturnScreen prefix="" />);
    // The shopper shell starts the page's session beside the screen, as on the page.
    void startSession('');
    await waitFor(() => expect(replacedWith()).toEqual([`/order-confirmation/${ID}/${'b'.repeat(32)}`]));
    expect(cartReadBeforePayment).toBe(true);
    expect(calls.filter((c) => c.path === '/api/cart')).toHaveLength(1);
    // The order closed the cart: the next page asks nothing of it.
    expect(window.localStorage.getItem(cartHintKey('uk'))).toBeNull();
  });

  it('goes back to payment when the return names no order', async () => {
    stubLocation('/us/checkout/return?order_id=x');
    const calls = stubFetch({});
    render(<ReturnScreen prefix="/us" />);
    await waitFor(() => expect(replacedWith()).toEqual(['/us/checkout/payment?notice=declined']));
    expect(calls.filter((c) => c.path.startsWith('/api/checkout'))).toHaveLength(0);
  });

  it('says what failed, with a way back to payment', async () => {
    stubLocation(`/checkout/return?order_id=${'b'.repeat(32)}`);
    rememberPending({ checkoutId: ID, orderId: 'b'.repeat(32) });
    stubFetch({ [`POST /api/checkout/${ID}/payment-details`]: { status: 502, body: { error: { code: 'payment_provider_unavailable', message: 'The payment provider is unavailable' } } } });
    render(<ReturnScreen prefix="" />);
    expect((await screen.findByRole('alert')).textContent).toBe('The payment provider is unavailable');
    expect(screen.getByRole('link', { name: 'Back to payment' }).getAttribute('href')).toBe('/checkout/payment');
  });
});
