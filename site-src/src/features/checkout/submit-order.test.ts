// Place order's answers (201, 202, 402, 409 insufficient_stock / checkout_incomplete /
// payment_in_progress) and its Idempotency-Key: one per attempt, reused by a retry, new after a
// decline; and the payment return (payment-details 201 / 402). fetch is stubbed at the network.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartHintKey } from '../bag/cart';
import { apiError, checkoutLine, checkoutView, ID, stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import { readDeclined, readPending, rememberPending } from './attempt';
import { finishRedirect, submitOrder, type OrderDeps } from './submit-order';

const ORDERS = `POST /api/checkout/${ID}/orders`;
const confirmed = { status: 201, body: { status: 'Confirmed', order_id: 'o'.repeat(32), order_number: '100001', checkout_id: ID, confirmation_path: `/us/order-confirmation/${ID}/${'o'.repeat(32)}` } };

function deps() {
  return { navigate: vi.fn<OrderDeps['navigate']>(), wait: vi.fn<OrderDeps['wait']>(async () => undefined) };
}

const keysOf = (calls: { path: string; method: string; headers: Record<string, string> }[]): string[] =>
  calls.filter((c) => `${c.method} ${c.path}` === ORDERS).map((c) => c.headers['Idempotency-Key'] ?? '');

afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  resetBrowserState();
});

describe('Place order', () => {
  it('sends the payment with an Idempotency-Key and goes to the confirmation on 201', async () => {
    stubLocation('/us/checkout/payment');
    const calls = stubFetch({ [ORDERS]: confirmed });
    const d = deps();
    expect(await submitOrder(ID, '/us', { method: 'scheme', token: 'tok' }, d)).toEqual({ kind: 'left' });
    expect(calls[0]?.url).toBe(`/api/checkout/${ID}/orders?market=us`);
    expect(calls[0]?.body).toEqual({ payment: { method: 'scheme', token: 'tok' } });
    expect(keysOf(calls)[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(d.navigate).toHaveBeenCalledWith(`/us/order-confirmation/${ID}/${'o'.repeat(32)}`);
    // The order closed the cart: the confirmation page must not ask for it (a 404).
    expect(window.localStorage.getItem(cartHintKey('us'))).toBeNull();
  });

  it('reuses the key after a network error, so the retry cannot charge twice', async () => {
    const calls = stubFetch({ [ORDERS]: ['network', confirmed] });
    const d = deps();
    expect(await submitOrder(ID, '', { method: 'paypal' }, d)).toEqual({ kind: 'failed', message: 'Something went wrong. Please try again.' });
    expect(d.navigate).not.toHaveBeenCalled();
    await submitOrder(ID, '', { method: 'paypal' }, d);
    const [first, second] = keysOf(calls);
    expect(second).toBe(first);
    expect(d.navigate).toHaveBeenCalledTimes(1);
  });

  it('keeps the key when the page is reloaded mid-attempt (sessionStorage)', async () => {
    const calls = stubFetch({ [ORDERS]: [{ status: 502, body: { error: { code: 'payment_provider_unavailable', message: 'down' } } }, confirmed] });
    await submitOrder(ID, '', { method: 'scheme', token: 'a' }, deps());
    // A reload keeps sessionStorage: the module reads the key from it, not from memory.
    await submitOrder(ID, '', { method: 'scheme', token: 'b' }, deps());
    const [first, second] = keysOf(calls);
    expect(second).toBe(first);
  });

  it('retries the same request after ~1 s while the first is still paying (409 payment_in_progress)', async () => {
    const calls = stubFetch({ [ORDERS]: [apiError(409, 'payment_in_progress', 'Payment in progress'), apiError(409, 'payment_in_progress', 'Payment in progress'), confirmed] });
    const d = deps();
    await submitOrder(ID, '', { method: 'scheme', token: 'tok' }, d);
    expect(d.wait).toHaveBeenCalledTimes(2);
    expect(d.wait).toHaveBeenCalledWith(1000);
    const keys = keysOf(calls);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(calls.map((c) => c.body)).toEqual(Array(3).fill({ payment: { method: 'scheme', token: 'tok' } }));
    expect(d.navigate).toHaveBeenCalledWith(expect.stringContaining('/order-confirmation/'));
  });

  it('says why on 402 and starts a new attempt (new key) for the next card', async () => {
    const calls = stubFetch({ [ORDERS]: [apiError(402, 'payment_failed', 'Your card was declined.'), confirmed] });
    const d = deps();
    expect(await submitOrder(ID, '', { method: 'scheme', token: 'declined' }, d)).toEqual({ kind: 'failed', message: 'Your card was declined.' });
    await submitOrder(ID, '', { method: 'scheme', token: 'good' }, d);
    const [first, second] = keysOf(calls);
    expect(second).not.toBe(first);
  });

  it('goes to the redirect on 202 and remembers the order for the return page', async () => {
    stubFetch({ [ORDERS]: { status: 202, body: { status: 'Pending', order_id: 'b'.repeat(32), action: { type: 'redirect', url: '/sandbox-pay/redirect/psp1' } } } });
    const d = deps();
    await submitOrder(ID, '', { method: 'klarna' }, d);
    expect(d.navigate).toHaveBeenCalledWith('/sandbox-pay/redirect/psp1');
    expect(readPending()).toEqual({ checkoutId: ID, orderId: 'b'.repeat(32) });
  });

  it('sends the shopper to the bag on 409 insufficient_stock', async () => {
    stubFetch({ [ORDERS]: apiError(409, 'insufficient_stock', 'The selected quantity exceeds available stock', { 'lines[0].quantity': 'only 1 left' }) });
    const d = deps();
    await submitOrder(ID, '/eu', { method: 'paypal' }, d);
    expect(d.navigate).toHaveBeenCalledWith('/eu/bag?notice=stock');
  });

  it("sends the shopper to the view's next step on 409 checkout_incomplete", async () => {
    stubFetch({
      [ORDERS]: apiError(409, 'checkout_incomplete', 'The checkout is not complete', { billing_address: 'Billing address is required' }),
      [`GET /api/checkout/${ID}`]: { status: 200, body: checkoutView({ next_step: 'delivery' }) },
    });
    const d = deps();
    await submitOrder(ID, '', { method: 'paypal' }, d);
    expect(d.navigate).toHaveBeenCalledWith('/checkout/delivery');
  });

  it('sends the shopper to the bag on 409 checkout_incomplete when a line sold out (its shipping option went with it)', async () => {
    stubFetch({
      [ORDERS]: apiError(409, 'checkout_incomplete', 'Please complete the checkout first', { shipping_option_id: 'is no longer offered for this address' }),
      [`GET /api/checkout/${ID}`]: { status: 200, body: checkoutView({ next_step: 'delivery', can_continue: false, lines: [checkoutLine({ stock_state: 'sold_out', available_to_sell: 0 })] }) },
    });
    const d = deps();
    await submitOrder(ID, '/us', { method: 'scheme', token: 'tok' }, d);
    expect(d.navigate).toHaveBeenCalledWith('/us/bag?notice=stock');
  });
});

describe('the payment return', () => {
  const DETAILS = `POST /api/checkout/${ID}/payment-details`;

  it('posts the pending order for its payment result and goes to the confirmation (201)', async () => {
    rememberPending({ checkoutId: ID, orderId: 'b'.repeat(32) });
    const calls = stubFetch({ [DETAILS]: confirmed });
    const d = deps();
    await finishRedirect('', `?order_id=${'b'.repeat(32)}`, d);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([DETAILS]);
    expect(calls[0]?.body).toEqual({ order_id: 'b'.repeat(32) });
    expect(d.navigate).toHaveBeenCalledWith(expect.stringContaining('/order-confirmation/'));
    expect(readPending()).toBeNull();
  });

  it('resumes the checkout for its id when this tab has none, and goes back to payment on 402', async () => {
    const calls = stubFetch({ 'POST /api/checkout': { status: 200, body: checkoutView() }, [DETAILS]: apiError(402, 'payment_failed', 'Authentication failed.') });
    const d = deps();
    await finishRedirect('/us', `?order_id=${'b'.repeat(32)}`, d);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/checkout', DETAILS]);
    expect(d.navigate).toHaveBeenCalledWith('/us/checkout/payment?notice=declined');
    expect(readDeclined()).toBe('Authentication failed.');
  });
});
