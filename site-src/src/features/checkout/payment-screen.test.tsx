// Review and pay: the review (lines, totals, details with Edit), exactly the payment methods the
// provider lists that this browser can complete (a wallet only where it can pay), card details
// posted to the provider's tokenize_url and never to /api, Place order (busy while it runs, 402 at
// the form, 201 on), and the Apple Pay and Google Pay sheets (outside services: fake classes).
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, checkoutLine, checkoutView, ID, stubFetch, stubLocation, type Answer } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import { rememberDeclined } from './attempt';
import PaymentScreen from './payment-screen';
import { GOOGLE_PAY, NO_WALLETS, usableMethods, walletSupport } from './wallets';

const METHODS = `GET /api/checkout/${ID}/payment-methods`;
const ORDERS = `POST /api/checkout/${ID}/orders`;
const TOKENS = 'POST /sandbox-pay/v1/tokens';
const CONFIRMATION = `/order-confirmation/${ID}/${'o'.repeat(32)}`;
const confirmed: Answer = { status: 201, body: { status: 'Confirmed', order_id: 'o'.repeat(32), order_number: '100001', checkout_id: ID, confirmation_path: CONFIRMATION } };

const methods = (...types: string[]): Answer => ({
  status: 200,
  body: {
    methods: types.map((type) => ({
      type,
      name: { scheme: 'Credit Card', giftcard: 'Gift card', paypal: 'PayPal', klarna: 'Klarna', applepay: 'Apple Pay', googlepay: 'Google Pay' }[type] ?? type,
      brands: ['visa', 'mc'],
      ...(type === 'googlepay' ? { configuration: { environment: 'TEST', gateway: 'example', gateway_merchant_id: 'exampleGatewayMerchantId' } } : {}),
    })),
    amount: 94.95,
    currency: 'GBP',
    tokenize_url: '/sandbox-pay/v1/tokens',
    merchant_name: 'Storefront',
  },
});

function routes(extra: Record<string, Parameters<typeof stubFetch>[0][string]> = {}) {
  return { 'POST /api/checkout': { status: 200, body: checkoutView() }, [METHODS]: methods('scheme', 'paypal'), ...extra };
}

async function fillCard(number = '4242 4242 4242 4242'): Promise<void> {
  fireEvent.change(await screen.findByLabelText('Card number *'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry date (MM/YY) *'), { target: { value: '12/39' } });
  fireEvent.change(screen.getByLabelText('Security code *'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('Name on card *'), { target: { value: 'Ada Lovelace' } });
}

const radios = (): string[] => within(screen.getByRole('group', { name: 'Payment method' })).getAllByRole('radio').map((r) => r.closest('label')?.textContent ?? '');

afterEach(() => {
  // Unmounted first: an effect still due must meet the stubbed fetch, not the network.
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  resetBrowserState();
});

describe('the review', () => {
  it('shows the lines, the totals and each detail with its Edit link', async () => {
    stubLocation('/checkout/payment');
    const gift = checkoutLine({ id: 'l2', name: 'Gift Card', is_gift_card: true, quantity: 1, extended_sale_price: 25, options: [{ name: 'Design', nameId: 3, value: 'Balloons', valueId: 31 }] });
    stubFetch(routes({ 'POST /api/checkout': { status: 200, body: checkoutView({ lines: [checkoutLine(), gift], totals: { subtotal: 116, discount: 10, shipping: 3.95, total: 109.95 } }) } }));
    render(<PaymentScreen prefix="" />);
    const summary = within(await screen.findByRole('region', { name: 'Order summary' }));
    expect(summary.getByText('Satin Slip Midi Dress')).toBeTruthy();
    expect(summary.getByText('Black')).toBeTruthy();
    expect(summary.getByText('Balloons')).toBeTruthy();
    expect(summary.getByText('Design:')).toBeTruthy();
    expect(summary.getByText('£116.00')).toBeTruthy();
    expect(summary.getByText('-£10.00')).toBeTruthy();
    expect(summary.getByText('£3.95')).toBeTruthy();
    expect(summary.getByText('£109.95')).toBeTruthy();
    const review = within(screen.getByRole('region', { name: 'Your details' }));
    expect(review.getByText('ada@example.com')).toBeTruthy();
    expect(review.getByText('Standard Delivery, 3-5 working days: £3.95')).toBeTruthy();
    expect(review.getByText('Same as delivery address')).toBeTruthy();
    expect(review.getByRole('link', { name: 'Edit email' }).getAttribute('href')).toBe('/checkout-identity');
    expect(review.getByRole('link', { name: 'Edit delivery address' }).getAttribute('href')).toBe('/checkout/delivery');
    expect(review.getByRole('link', { name: 'Edit billing address' }).getAttribute('href')).toBe('/checkout/billing');
  });

  it('shows no discount row without a discount', async () => {
    stubLocation('/checkout/payment');
    stubFetch(routes());
    render(<PaymentScreen prefix="" />);
    await screen.findByLabelText('Credit Card');
    expect(screen.queryByText('Discount')).toBeNull();
  });
});

describe('payment methods', () => {
  it('shows exactly the listed methods it can complete, in their order', async () => {
    stubLocation('/checkout/payment');
    stubFetch(routes({ [METHODS]: methods('paypal', 'applepay', 'scheme', 'googlepay', 'giftcard', 'klarna') }));
    render(<PaymentScreen prefix="" />);
    await screen.findByLabelText('PayPal');
    expect(radios()).toEqual(['PayPal', 'Credit Card', 'Gift card', 'Klarna']);
  });

  it('lists Apple Pay only where the wallet can pay now, and Google Pay only where the browser says it can', async () => {
    const answer = { methods: [{ type: 'applepay' as const, name: 'Apple Pay' }, { type: 'googlepay' as const, name: 'Google Pay' }, { type: 'scheme' as const, name: 'Card' }], amount: 10, currency: 'GBP', tokenize_url: '/t', merchant_name: 'Shop' };
    expect(usableMethods(answer, NO_WALLETS).map((m) => m.type)).toEqual(['scheme']);
    expect(await walletSupport(answer)).toEqual(NO_WALLETS);
    vi.stubGlobal('ApplePaySession', Object.assign(function Session() {}, { canMakePayments: () => false }));
    vi.stubGlobal('PaymentRequest', fakePaymentRequest({ canPay: false }).Request);
    expect(await walletSupport(answer)).toEqual(NO_WALLETS);
    vi.stubGlobal('ApplePaySession', Object.assign(function Session() {}, { canMakePayments: () => true }));
    const google = fakePaymentRequest({ canPay: true });
    vi.stubGlobal('PaymentRequest', google.Request);
    const support = await walletSupport(answer);
    expect(support).toEqual({ applePay: true, googlePay: true });
    expect(usableMethods(answer, support).map((m) => m.type)).toEqual(['applepay', 'googlepay', 'scheme']);
    expect(google.methods[0]?.supportedMethods).toBe(GOOGLE_PAY);
    expect(google.details[0]).toEqual({ total: { label: 'Shop', amount: { currency: 'GBP', value: '10.00' } } });
  });
});

/** A fake of the Payment Request API (the browser's Google Pay sheet). */
function fakePaymentRequest(behaviour: { canPay: boolean; token?: string; cancel?: boolean }) {
  const methods: { supportedMethods: string; data: unknown }[] = [];
  const details: unknown[] = [];
  const completed: string[] = [];
  class Request {
    constructor(m: { supportedMethods: string; data: unknown }[], d: unknown) {
      methods.push(...m);
      details.push(d);
    }
    canMakePayment(): Promise<boolean> {
      return Promise.resolve(behaviour.canPay);
    }
    show(): Promise<unknown> {
      if (behaviour.cancel === true) return Promise.reject(new DOMException('closed', 'AbortError'));
      return Promise.resolve({
        details: { paymentMethodData: { tokenizationData: { type: 'PAYMENT_GATEWAY', token: behaviour.token ?? 'gpay-token' } } },
        complete: (result: string) => {
          completed.push(result);
          return Promise.resolve();
        },
      });
    }
  }
  return { Request, methods, details, completed };
}

/** A fake Apple Pay wallet: begin() validates the merchant, then authorises with a token; a failed payment is followed by the shopper closing the sheet. */
function fakeApplePay() {
  const log: { requests: unknown[]; sessions: unknown[]; statuses: number[] } = { requests: [], sessions: [], statuses: [] };
  class Session {
    static STATUS_SUCCESS = 0;
    static STATUS_FAILURE = 1;
    static canMakePayments = (): boolean => true;
    onvalidatemerchant: ((e: { validationURL: string }) => void) | null = null;
    onpaymentauthorized: ((e: { payment: { token: unknown } }) => void) | null = null;
    oncancel: ((e: unknown) => void) | null = null;
    constructor(_version: number, request: unknown) {
      log.requests.push(request);
    }
    begin(): void {
      this.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway-cert.apple.com/paymentservices/startSession' });
    }
    completeMerchantValidation(session: unknown): void {
      log.sessions.push(session);
      this.onpaymentauthorized?.({ payment: { token: { paymentData: { data: 'encrypted' }, transactionIdentifier: 'T1' } } });
    }
    completePayment(result: { status: number }): void {
      log.statuses.push(result.status);
      if (result.status === Session.STATUS_FAILURE) this.oncancel?.({});
    }
    abort(): void {
      this.oncancel?.({});
    }
  }
  return { Session, log };
}

describe('wallets', () => {
  const SESSION = `POST /api/checkout/${ID}/apple-pay-session`;

  it('Apple Pay: the sheet for the total, the merchant session through the API, then Place order with the token', async () => {
    const assign = stubLocation('/checkout/payment');
    const apple = fakeApplePay();
    vi.stubGlobal('ApplePaySession', apple.Session);
    const calls = stubFetch(routes({ [METHODS]: methods('applepay', 'scheme'), [SESSION]: { status: 200, body: { merchantSessionIdentifier: 'S1' } }, [ORDERS]: confirmed }));
    render(<PaymentScreen prefix="" />);
    fireEvent.click(await screen.findByLabelText('Apple Pay'));
    expect(screen.getByText('Press Place order to pay with Apple Pay.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONFIRMATION));
    expect(apple.log.requests[0]).toMatchObject({ countryCode: 'GB', currencyCode: 'GBP', supportedNetworks: ['visa', 'masterCard'], total: { label: 'Storefront', amount: '94.95' } });
    expect(calls.find((c) => `${c.method} ${c.path}` === SESSION)?.body).toEqual({ validation_url: 'https://apple-pay-gateway-cert.apple.com/paymentservices/startSession' });
    expect(apple.log.sessions).toEqual([{ merchantSessionIdentifier: 'S1' }]);
    const order = calls.find((c) => `${c.method} ${c.path}` === ORDERS)?.body as { payment: { method: string; token: string } };
    expect(order.payment.method).toBe('applepay');
    expect(JSON.parse(order.payment.token)).toEqual({ paymentData: { data: 'encrypted' }, transactionIdentifier: 'T1' });
    expect(apple.log.statuses).toEqual([apple.Session.STATUS_SUCCESS]);
  });

  it('Apple Pay: a refused payment fails the sheet and, once it is closed, shows why; the button works again', async () => {
    stubLocation('/checkout/payment');
    const apple = fakeApplePay();
    vi.stubGlobal('ApplePaySession', apple.Session);
    stubFetch(routes({ [METHODS]: methods('applepay'), [SESSION]: { status: 200, body: {} }, [ORDERS]: apiError(402, 'payment_failed', 'Your card was declined.') }));
    render(<PaymentScreen prefix="" />);
    await screen.findByLabelText('Apple Pay');
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(apple.log.statuses).toEqual([apple.Session.STATUS_FAILURE]);
    expect((screen.getByRole('button', { name: 'Place order' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Google Pay: the browser sheet with the gateway and total, then Place order with its token; the sheet closes with success', async () => {
    const assign = stubLocation('/checkout/payment');
    const google = fakePaymentRequest({ canPay: true, token: '{"protocolVersion":"ECv2"}' });
    vi.stubGlobal('PaymentRequest', google.Request);
    const calls = stubFetch(routes({ [METHODS]: methods('googlepay', 'scheme'), [ORDERS]: confirmed }));
    render(<PaymentScreen prefix="" />);
    fireEvent.click(await screen.findByLabelText('Google Pay'));
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONFIRMATION));
    expect(google.methods.at(-1)?.data).toMatchObject({
      environment: 'TEST',
      merchantInfo: { merchantName: 'Storefront' },
      allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedCardNetworks: ['VISA', 'MASTERCARD'] }, tokenizationSpecification: { parameters: { gateway: 'example', gatewayMerchantId: 'exampleGatewayMerchantId' } } }],
    });
    expect(google.details.at(-1)).toEqual({ total: { label: 'Storefront', amount: { currency: 'GBP', value: '94.95' } } });
    expect(calls.find((c) => `${c.method} ${c.path}` === ORDERS)?.body).toEqual({ payment: { method: 'googlepay', token: '{"protocolVersion":"ECv2"}' } });
    expect(google.completed).toEqual(['success']);
  });

  it('Google Pay: closing the sheet places nothing and says nothing', async () => {
    stubLocation('/checkout/payment');
    vi.stubGlobal('PaymentRequest', fakePaymentRequest({ canPay: true, cancel: true }).Request);
    const calls = stubFetch(routes({ [METHODS]: methods('googlepay') }));
    render(<PaymentScreen prefix="" />);
    await screen.findByLabelText('Google Pay');
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Place order' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.some((c) => c.path.endsWith('/orders'))).toBe(false);
  });
});

describe('Place order', () => {
  it('posts the card to tokenize_url, never to /api, and places the order with the token', async () => {
    const assign = stubLocation('/checkout/payment');
    const calls = stubFetch(routes({ [TOKENS]: { status: 201, body: { token: 'sbx_tok_1' } }, [ORDERS]: confirmed }));
    render(<PaymentScreen prefix="" />);
    await fillCard();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONFIRMATION));
    const token = calls.find((c) => `${c.method} ${c.path}` === TOKENS);
    expect(token?.body).toEqual({ type: 'scheme', number: '4242424242424242', expiry_month: '12', expiry_year: '2039', cvc: '123', holder_name: 'Ada Lovelace' });
    const apiCalls = calls.filter((c) => c.path.startsWith('/api'));
    expect(JSON.stringify(apiCalls)).not.toContain('4242');
    expect(JSON.stringify(apiCalls)).not.toContain('"123"');
    expect(calls.find((c) => `${c.method} ${c.path}` === ORDERS)?.body).toEqual({ payment: { method: 'scheme', token: 'sbx_tok_1' } });
    // Nothing of the card is kept for a reload.
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('4242');
  });

  it('tokenises a gift card the same way', async () => {
    stubLocation('/checkout/payment');
    const calls = stubFetch(routes({ [METHODS]: methods('giftcard'), [TOKENS]: { status: 201, body: { token: 'sbx_tok_g' } }, [ORDERS]: confirmed }));
    render(<PaymentScreen prefix="" />);
    fireEvent.change(await screen.findByLabelText('Gift card number *'), { target: { value: '6036 2800 0000 0001' } });
    fireEvent.change(screen.getByLabelText('PIN *'), { target: { value: '1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/orders'))).toBe(true));
    expect(calls.find((c) => c.path === '/sandbox-pay/v1/tokens')?.body).toEqual({ type: 'giftcard', number: '6036280000000001', pin: '1234' });
  });

  it("shows the tokeniser's field errors at their fields and places nothing", async () => {
    stubLocation('/checkout/payment');
    const calls = stubFetch(routes({ [TOKENS]: apiError(400, 'validation', 'Your card number is not valid', { number: 'Your card number is not valid' }) }));
    render(<PaymentScreen prefix="" />);
    await fillCard();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    const number = screen.getByLabelText('Card number *');
    await waitFor(() => expect(number.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(number.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Your card number is not valid');
    expect(calls.some((c) => c.path.endsWith('/orders'))).toBe(false);
  });

  it('refuses a tokenize_url on /api', async () => {
    stubLocation('/checkout/payment');
    const calls = stubFetch(routes({ [METHODS]: { status: 200, body: { methods: [{ type: 'scheme', name: 'Card' }], amount: 1, currency: 'GBP', tokenize_url: '/api/tokens' } } }));
    render(<PaymentScreen prefix="" />);
    await fillCard();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/tokens')).toBe(false);
  });

  it("is one button, disabled and reading 'Loading...' while it runs; a 402 is shown at the form and the next card is a new attempt", async () => {
    stubLocation('/checkout/payment');
    let release = (_: Answer): void => undefined;
    const calls = stubFetch(
      routes({
        [METHODS]: methods('paypal', 'klarna'),
        [ORDERS]: () =>
          new Promise<Answer>((resolve) => {
            release = resolve;
          }),
      }),
    );
    render(<PaymentScreen prefix="" />);
    await screen.findByLabelText('PayPal');
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    const busy = await screen.findByRole('button', { name: 'Loading...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(busy);
    expect(calls.filter((c) => c.path.endsWith('/orders'))).toHaveLength(1);

    release(apiError(402, 'payment_failed', 'Your card was declined.'));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    const again = screen.getByRole('button', { name: 'Place order' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);

    fireEvent.click(screen.getByLabelText('Klarna'));
    fireEvent.click(again);
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/orders'))).toHaveLength(2));
    const [first, second] = calls.filter((c) => c.path.endsWith('/orders'));
    expect(second?.body).toEqual({ payment: { method: 'klarna' } });
    expect(second?.headers['Idempotency-Key']).not.toBe(first?.headers['Idempotency-Key']);
  });

  it('goes to the redirect of a 202 (PayPal)', async () => {
    const assign = stubLocation('/checkout/payment');
    stubFetch(routes({ [ORDERS]: { status: 202, body: { status: 'Pending', order_id: 'p'.repeat(32), action: { type: 'redirect', url: '/sandbox-pay/redirect/psp' } } } }));
    render(<PaymentScreen prefix="" />);
    fireEvent.click(await screen.findByLabelText('PayPal'));
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox-pay/redirect/psp'));
  });

  it('says why a redirect payment failed when the return page sent the shopper back', async () => {
    stubLocation('/checkout/payment?notice=declined');
    rememberDeclined('Authentication failed.');
    stubFetch(routes());
    render(<PaymentScreen prefix="" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Authentication failed.');
    await screen.findByLabelText('Credit Card');
  });
});
