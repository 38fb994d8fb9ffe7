// The express button's rules (amount in minor units = cart_amount × 100, country GB, the
// retailer as merchant label; shown only when configured and the wallet can pay) and the sheet's
// sequence against the API. The wallet (`ApplePaySession`, an outside service) is a fake class;
// fetch is stubbed at the network boundary.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  amountMinor,
  beginExpressCheckout,
  expressCheckoutShown,
  paymentRequest,
  walletAmount,
  type ApplePayContact,
  type ApplePayPaymentRequest,
  type ApplePayUpdate,
} from './express-checkout';
import type { Cart } from '../../lib/store';

function cart(amount: number, express: boolean): Cart {
  return {
    id: 'c1', market: 'uk', currency: { code: 'GBP' }, cart_amount: amount, base_amount: amount,
    line_items: { physical_items: [], digital_items: [] }, total_item_count: 2,
    express_checkout: express ? { merchant_label: 'Maison Lark', country_code: 'GB' } : null,
  };
}

/** A stand-in for Safari's ApplePaySession that records what the page asks of it. */
class FakeSession {
  static STATUS_SUCCESS = 0;
  static STATUS_FAILURE = 1;
  static can = true;
  static last: FakeSession | null = null;
  static canMakePayments(): boolean {
    return FakeSession.can;
  }
  log: [string, unknown][] = [];
  onvalidatemerchant: ((e: { validationURL: string }) => void) | null = null;
  onshippingcontactselected: ((e: { shippingContact: ApplePayContact }) => void) | null = null;
  onshippingmethodselected: ((e: { shippingMethod: { identifier: string; label: string; detail: string; amount: string } }) => void) | null = null;
  onpaymentauthorized: ((e: { payment: { token: unknown; shippingContact?: ApplePayContact; billingContact?: ApplePayContact } }) => void) | null = null;
  oncancel: ((e: unknown) => void) | null = null;
  constructor(
    readonly version: number,
    readonly request: ApplePayPaymentRequest,
  ) {
    FakeSession.last = this;
  }
  begin(): void {
    this.log.push(['begin', null]);
  }
  abort(): void {
    this.log.push(['abort', null]);
  }
  completeMerchantValidation(s: unknown): void {
    this.log.push(['merchant', s]);
  }
  completeShippingContactSelection(u: ApplePayUpdate): void {
    this.log.push(['contact', u]);
  }
  completeShippingMethodSelection(u: ApplePayUpdate): void {
    this.log.push(['method', u]);
  }
  completePayment(r: { status: number }): void {
    this.log.push(['payment', r]);
  }
}

class FakeError {
  constructor(
    readonly code: string,
    readonly contactField?: string,
    readonly message?: string,
  ) {}
}

function wallet(): Window {
  return { ApplePaySession: FakeSession, ApplePayError: FakeError } as unknown as Window;
}

const totals = (shipping: number, options: string[] = []) => ({
  checkout_id: 'a'.repeat(32), currency: 'GBP', items_minor: 4999, shipping_minor: shipping, total_minor: 4999 + shipping,
  merchant_label: 'Maison Lark', country_code: 'GB', shipping_option_id: options[0] ?? null,
  shipping_options: options.map((id) => ({ id, label: id, detail: '', amount_minor: shipping })),
});

type Route = (body: unknown) => { status: number; body: unknown };

/** fetch answering by path; records each call's path and body. */
function stubApi(routes: Record<string, Route>): { path: string; body: unknown }[] {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = url.split('?')[0] ?? '';
    const body: unknown = init?.body === undefined ? null : JSON.parse(String(init.body));
    calls.push({ path, body });
    const key = Object.keys(routes).find((k) => path.endsWith(k));
    const answer = key === undefined ? { status: 500, body: {} } : (routes[key] as Route)(body);
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }));
  return calls;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
  FakeSession.can = true;
  FakeSession.last = null;
});

describe('express button rules', () => {
  it('charges cart_amount × 100 in minor units, shown to the wallet as a decimal string', () => {
    expect(amountMinor(49.99)).toBe(4999);
    expect(amountMinor(0.1 + 0.2)).toBe(30);
    expect(amountMinor(1234.5)).toBe(123450);
    expect(walletAmount(4999)).toBe('49.99');
    expect(walletAmount(5)).toBe('0.05');
    const request = paymentRequest(cart(49.99, true));
    expect(request.countryCode).toBe('GB');
    expect(request.currencyCode).toBe('GBP');
    expect(request.total).toEqual({ label: 'Maison Lark', amount: '49.99', type: 'final' });
  });

  it('shows only when the API configures it, the bag has lines and the wallet can pay', () => {
    expect(expressCheckoutShown(cart(10, true), wallet())).toBe(true);
    expect(expressCheckoutShown(cart(10, false), wallet())).toBe(false);
    expect(expressCheckoutShown({ ...cart(10, true), id: null }, wallet())).toBe(false);
    expect(expressCheckoutShown(null, wallet())).toBe(false);
    expect(expressCheckoutShown(cart(10, true), {} as Window)).toBe(false);
    FakeSession.can = false;
    expect(expressCheckoutShown(cart(10, true), wallet())).toBe(false);
  });
});

describe('the wallet sequence', () => {
  it('answers each sheet event from the API and goes to the confirmation page', async () => {
    const calls = stubApi({
      '/checkout/express': () => ({ status: 201, body: totals(0) }),
      '/merchant-session': () => ({ status: 200, body: { merchantSessionIdentifier: 'm1' } }),
      '/shipping-contact': (body) =>
        (body as { country_code: string }).country_code === 'FR'
          ? { status: 422, body: { error: { code: 'shipping_country_not_allowed', message: 'We only ship to UK, Jersey, and Guernsey' } } }
          : { status: 200, body: totals(395, ['uk-standard']) },
      '/shipping-method': () => ({ status: 200, body: totals(595, ['uk-standard', 'uk-next-day']) }),
      '/authorize': () => ({ status: 201, body: { order_id: 'o', order_number: '1', checkout_id: 'c', confirmation_path: '/order-confirmation/c/o?checkoutsource=applepayexpress' } }),
    });
    const navigate = vi.fn();
    beginExpressCheckout(cart(49.99, true), { prefix: '', navigate, report: vi.fn(), win: wallet() });
    const session = FakeSession.last as FakeSession;
    expect(session.version).toBe(3);
    expect(session.log).toEqual([['begin', null]]);

    session.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway.apple.com/x' });
    await flush();
    expect(session.log[1]).toEqual(['merchant', { merchantSessionIdentifier: 'm1' }]);
    expect(calls[1]?.body).toEqual({ validation_url: 'https://apple-pay-gateway.apple.com/x' });

    session.onshippingcontactselected?.({ shippingContact: { countryCode: 'FR', postalCode: '75001' } });
    await flush();
    const refused = session.log[2]?.[1] as ApplePayUpdate;
    expect(refused.errors).toEqual([new FakeError('shippingContactInvalid', 'countryCode', 'We only ship to UK, Jersey, and Guernsey')]);

    session.onshippingcontactselected?.({ shippingContact: { countryCode: 'GB', postalCode: 'N1' } });
    await flush();
    const accepted = session.log[3]?.[1] as ApplePayUpdate;
    expect(accepted.newTotal.amount).toBe('53.94');
    expect(accepted.newShippingMethods?.map((m) => m.identifier)).toEqual(['uk-standard']);

    session.onshippingmethodselected?.({ shippingMethod: { identifier: 'uk-next-day', label: '', detail: '', amount: '' } });
    await flush();
    expect((session.log[4]?.[1] as ApplePayUpdate).newTotal.amount).toBe('55.94');

    session.onpaymentauthorized?.({ payment: { token: { paymentData: {} }, shippingContact: { givenName: 'Ada', countryCode: 'GB' }, billingContact: { givenName: 'Ada' } } });
    await flush();
    expect(session.log[5]).toEqual(['payment', { status: 0 }]);
    expect(navigate).toHaveBeenCalledWith('/order-confirmation/c/o?checkoutsource=applepayexpress');
    // The browser never sends an amount.
    for (const call of calls) expect(JSON.stringify(call.body)).not.toMatch(/amount|price|total/);
  });

  it('a stock shortage at the click closes the sheet and goes to the bag', async () => {
    stubApi({ '/checkout/express': () => ({ status: 409, body: { error: { code: 'insufficient_stock', message: 'The selected quantity exceeds available stock' } } }) });
    const navigate = vi.fn();
    beginExpressCheckout(cart(10, true), { prefix: '/eu', navigate, report: vi.fn(), win: wallet() });
    const session = FakeSession.last as FakeSession;
    session.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway.apple.com/x' });
    await flush();
    expect(session.log.map(([name]) => name)).toEqual(['begin', 'abort']);
    expect(navigate).toHaveBeenCalledWith('/eu/bag');
  });

  it('a failed payment completes with the failure status and stays on the page', async () => {
    stubApi({
      '/checkout/express': () => ({ status: 201, body: totals(0) }),
      '/authorize': () => ({ status: 402, body: { error: { code: 'payment_failed', message: 'Your payment was not successful.' } } }),
    });
    const navigate = vi.fn();
    const report = vi.fn();
    beginExpressCheckout(cart(10, true), { prefix: '', navigate, report, win: wallet() });
    const session = FakeSession.last as FakeSession;
    session.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway.apple.com/x' });
    await flush();
    session.onpaymentauthorized?.({ payment: { token: { x: 1 } } });
    await flush();
    expect(session.log.at(-1)).toEqual(['payment', { status: 1 }]);
    expect(navigate).not.toHaveBeenCalled();
    expect(report).toHaveBeenCalledWith('Your payment was not successful.');
  });
});
