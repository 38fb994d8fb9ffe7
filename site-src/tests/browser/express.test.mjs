// The bag's Apple Pay-style express checkout in Debian's chromium, end to end: `storefront dev`
// runs with express checkout on and its card payment provider at a fake this test serves on
// loopback (merchant session, `applePayPayment`). The wallet itself (Apple's `ApplePaySession`,
// an outside service that cannot run here) is the only other fake, injected before the page
// loads: it plays the shopper in the sheet — a French address (refused with the spec's copy),
// then a GB one, a shipping method, and the authorised payment — against the real API, which
// creates the order; the page then shows the order-confirmation screen loaded from the API.
// Run: PAYMENT_FAKE_PORT=P and SITE_URL of a `storefront dev` started with
// EXPRESS_CHECKOUT_ENABLED=true PAYMENT_PROVIDER_BASE_URL=http://127.0.0.1:P (see scripts/test).
import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { axeViolations, chromiumMissing, hydrated, launch, openPage } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const FAKE_PORT = Number(process.env.PAYMENT_FAKE_PORT ?? '0');
const PRODUCT = '/p/101/satin-slip-midi-dress/Emerald_Green';
const TIMEOUT = 20_000;

const problem = SITE_URL === '' ? 'SITE_URL is not set' : FAKE_PORT === 0 ? 'PAYMENT_FAKE_PORT is not set' : chromiumMissing();

/** The fake payment provider: records every call; authorises every payment. */
function fakeProvider() {
  const calls = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const json = body === '' ? null : JSON.parse(body);
      calls.push({ path: req.url, authorization: req.headers.authorization, body: json });
      const send = (status, answer) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      if (req.method === 'POST' && req.url === '/applepay/merchant-session') {
        send(200, { merchantSessionIdentifier: 'SSH-browser', displayName: json.displayName, signature: 'c2ln' });
      } else if (req.method === 'POST' && req.url === '/applepay/payments') {
        send(200, { status: 'authorised', reference: `psp_${json.orderId}` });
      } else {
        send(404, {});
      }
    });
  });
  return { calls, server };
}

/**
 * Injected before any page script: Apple Pay JS's shape (ApplePaySession with its constants,
 * canMakePayments, the on… events and complete… answers; ApplePayError). `begin()` plays the
 * sheet, each event waiting for the page's answer, and logs everything in `window.__wallet`.
 */
function fakeWallet() {
  // Kept in sessionStorage: the log must survive the navigation to the confirmation page, where
  // this script runs again.
  const saved = window.sessionStorage.getItem('fake-wallet');
  const wallet = saved === null ? { log: [], request: null, version: null } : JSON.parse(saved);
  const save = () => window.sessionStorage.setItem('fake-wallet', JSON.stringify(wallet));
  window.__wallet = wallet;
  class ApplePayError {
    constructor(code, contactField, message) {
      this.code = code;
      this.contactField = contactField;
      this.message = message;
    }
  }
  class ApplePaySession {
    static STATUS_SUCCESS = 0;
    static STATUS_FAILURE = 1;
    static canMakePayments() {
      return true;
    }
    static supportsVersion(version) {
      return version >= 1 && version <= 14;
    }
    constructor(version, request) {
      wallet.version = version;
      wallet.request = request;
      save();
      this.waiting = null;
      this.onvalidatemerchant = null;
      this.onshippingcontactselected = null;
      this.onshippingmethodselected = null;
      this.onpaymentauthorized = null;
      this.oncancel = null;
    }
    answer(name, value) {
      wallet.log.push([name, JSON.parse(JSON.stringify(value ?? null))]);
      save();
      const resolve = this.waiting;
      this.waiting = null;
      if (resolve) resolve(value);
    }
    event(fire) {
      const answered = new Promise((resolve) => {
        this.waiting = resolve;
      });
      fire();
      return answered;
    }
    begin() {
      wallet.log.push(['begin', null]);
      save();
      void this.play();
    }
    abort() {
      this.answer('abort', null);
    }
    completeMerchantValidation(session) {
      this.answer('merchant', session);
    }
    completeShippingContactSelection(update) {
      this.answer('contact', update);
    }
    completeShippingMethodSelection(update) {
      this.answer('method', update);
    }
    completePayment(result) {
      this.answer('payment', result);
    }
    async play() {
      const merchant = await this.event(() => this.onvalidatemerchant({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' }));
      if (merchant === null) return;
      await this.event(() => this.onshippingcontactselected({ shippingContact: { countryCode: 'FR', postalCode: '75001', locality: 'Paris' } }));
      const gb = await this.event(() =>
        this.onshippingcontactselected({ shippingContact: { countryCode: 'GB', postalCode: 'N1 9GU', locality: 'London', administrativeArea: '' } }),
      );
      const methods = gb.newShippingMethods ?? [];
      await this.event(() => this.onshippingmethodselected({ shippingMethod: methods[methods.length - 1] }));
      const contact = {
        givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.com', phoneNumber: '+44 20 7946 0000',
        addressLines: ['1 Analytical Row'], locality: 'London', administrativeArea: '', postalCode: 'N1 9GU', countryCode: 'GB',
      };
      await this.event(() =>
        this.onpaymentauthorized({
          payment: {
            token: { paymentData: { version: 'EC_v1', data: 'ZW5j', signature: 'c2ln', header: { transactionId: 't1' } }, paymentMethod: { displayName: 'Visa 1234', network: 'Visa', type: 'debit' }, transactionIdentifier: 't1' },
            shippingContact: contact,
            billingContact: { ...contact, emailAddress: undefined, phoneNumber: undefined },
          },
        }),
      );
    }
  }
  window.ApplePaySession = ApplePaySession;
  window.ApplePayError = ApplePayError;
}

const minor = (text) => Math.round(Number(text.replace(/[^0-9.]/g, '')) * 100);

describe('express checkout from the bag', { skip: problem ?? false }, () => {
  const provider = fakeProvider();
  before(() => new Promise((resolve) => provider.server.listen(FAKE_PORT, '127.0.0.1', resolve)));
  after(() => new Promise((resolve) => provider.server.close(resolve)));

  it('walks the wallet sheet against the API and ends on the order confirmation (1280 px)', async () => {
    const browser = await launch({ width: 1280, height: 900 });
    try {
      await browser.context.addInitScript(fakeWallet);
      const { page, errors } = await openPage(browser.context, `${SITE_URL}${PRODUCT}`, TIMEOUT);
      await hydrated(page);
      await page.locator('.product-options').getByText('10', { exact: true }).click();
      await page.locator('.product-options').getByText('Regular', { exact: true }).click();
      await page.locator('.product-actions__add').click();
      const popup = page.getByRole('dialog', { name: 'Added to bag' });
      await popup.waitFor();
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'detached' });

      await page.locator('.header-action--bag').click();
      const bag = page.getByRole('dialog', { name: 'SHOPPING BAG' });
      await bag.waitFor();
      const express = bag.getByRole('button', { name: 'Check out with Apple Pay' });
      await express.waitFor();
      const subtotal = minor(await bag.locator('[data-subtotal]').innerText());
      const name = await bag.locator('.bag-line__name').first().innerText();

      await express.click();
      await page.waitForURL(/\/order-confirmation\/[0-9a-f]{32}\/[0-9a-f]{32}\?checkoutsource=applepayexpress$/, { timeout: TIMEOUT });
      await page.locator('[data-order-number]').waitFor({ timeout: TIMEOUT });
      const wallet = await page.evaluate(() => window.__wallet);

      // The sheet opened with the expected request: GB, the retailer's name, the bag's amount.
      assert.equal(wallet.version, 3);
      assert.equal(wallet.request.countryCode, 'GB');
      assert.equal(wallet.request.currencyCode, 'GBP');
      assert.equal(wallet.request.total.label, 'Maison Lark');
      assert.equal(minor(wallet.request.total.amount), subtotal);
      // Merchant validation went through the API to the provider.
      const steps = wallet.log.map(([step]) => step);
      assert.deepEqual(steps, ['begin', 'merchant', 'contact', 'contact', 'method', 'payment'], JSON.stringify(wallet.log));
      assert.equal(wallet.log[1][1].merchantSessionIdentifier, 'SSH-browser');
      // France is refused with the spec's copy, on the country field.
      assert.deepEqual(wallet.log[2][1].errors, [{ code: 'shippingContactInvalid', contactField: 'countryCode', message: 'We only ship to UK, Jersey, and Guernsey' }]);
      // GB: options from the API, never click & collect or parcel shop.
      const methods = wallet.log[3][1].newShippingMethods;
      assert.ok(methods.length >= 1);
      assert.equal(methods[0].label, 'Standard Delivery');
      assert.ok(methods.every((m) => !/click & collect|parcel shop/i.test(m.label)), JSON.stringify(methods));
      const chosen = methods[methods.length - 1];
      const total = minor(wallet.log[4][1].newTotal.amount);
      assert.equal(total, subtotal + minor(chosen.amount));
      assert.deepEqual(wallet.log[5][1], { status: 0 });

      // The provider charged the server's total for the order.
      const payment = provider.calls.find((c) => c.path === '/applepay/payments');
      assert.equal(payment.body.amount, total);
      assert.equal(payment.body.currency, 'GBP');
      assert.equal(payment.authorization, 'Bearer test-key');
      assert.equal(payment.body.paymentToken.transactionIdentifier, 't1');

      // The confirmation screen shows the order from the API.
      const order = page.locator('[data-order-number]');
      const number = await order.getAttribute('data-order-number');
      assert.match(number, /^[0-9]{10}$/);
      assert.match(await order.innerText(), new RegExp(`Order number ${number}`));
      assert.match(await order.innerText(), new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.match(await order.innerText(), new RegExp(chosen.label));
      assert.equal(minor(await page.locator('[data-order-total]').innerText()), total);
      // A real order's confirmation is a page type too: axe finds nothing on it.
      assert.deepEqual(await axeViolations(page), []);
      // The one refused call is the French address (the wallet shows the error); nothing else.
      const refused = (e) => /422/.test(e) && (/\/shipping-contact/.test(e) || /^console: Failed to load resource/.test(e));
      assert.ok(errors.some((e) => /^HTTP 422: .*\/shipping-contact/.test(e)), errors.join('\n'));
      assert.deepEqual(errors.filter((e) => !refused(e)), []);
      // The bag was closed with the order.
      const status = await page.evaluate(async () => (await fetch('/api/cart?market=uk')).status);
      assert.equal(status, 404);
    } finally {
      await browser.close();
    }
  });
});
