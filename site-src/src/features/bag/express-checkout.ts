// The Apple Pay-style express checkout of the bag (docs/api.md, "Express checkout"): the wallet
// sheet (`window.ApplePaySession`, Apple's JS API) opens in the click itself, and each of its
// events is answered by the API — start (reload the cart, check stock, the amount), the merchant
// session (through the payment provider), the shipping contact (the country and shipping-option
// rules), the shipping method (the new total), the authorisation (the order and the payment).
// Every amount shown comes from the API; the browser never sends one. Loaded with the bag only.
import { ApiError } from '../../lib/api';
import {
  APPLE_PAY_VERSION,
  walletAmount,
  walletOf,
  type ApplePayContact,
  type ApplePayErrorClass,
  type ApplePayPaymentRequest,
  type ApplePayUpdate,
} from '../../lib/apple-pay';
import type { Cart } from '../../lib/store';
import type { ExpressTotals } from './express-api/express-view';
import { postAuthorize } from './express-api/post-authorize';
import { postMerchantSession } from './express-api/post-merchant-session';
import { postShippingContact } from './express-api/post-shipping-contact';
import { postShippingMethod } from './express-api/post-shipping-method';
import { startExpressCheckout } from './express-api/start-express-checkout';

export { walletAmount };
export type { ApplePayContact, ApplePayPaymentRequest, ApplePayUpdate };

// ---- the rules ----

/** The button's amount in minor units is cart_amount × 100 (rounded: cart_amount is decimal). */
export function amountMinor(cartAmount: number): number {
  return Math.round(cartAmount * 100);
}

/** The button shows when the API says express checkout is configured, the bag has lines, and the wallet can pay. */
export function expressCheckoutShown(cart: Cart | null, win: Window = window): boolean {
  return cart?.express_checkout != null && cart.id !== null && cart.total_item_count > 0 && walletOf(win) !== null;
}

/** The sheet's opening request: GB merchant, the retailer as label, the bag's amount. */
export function paymentRequest(cart: Cart): ApplePayPaymentRequest {
  const button = cart.express_checkout;
  return {
    countryCode: button?.country_code ?? 'GB',
    currencyCode: cart.currency.code,
    merchantCapabilities: ['supports3DS'],
    supportedNetworks: ['visa', 'masterCard', 'amex', 'maestro'],
    total: { label: button?.merchant_label ?? '', amount: walletAmount(amountMinor(cart.cart_amount)), type: 'final' },
    requiredShippingContactFields: ['postalAddress', 'name', 'email', 'phone'],
    requiredBillingContactFields: ['postalAddress', 'name'],
  };
}

// ---- the sheet's view of the API's answers ----

/** The sheet's total and lines for the API's totals. */
export function sheetUpdate(totals: ExpressTotals): ApplePayUpdate {
  return {
    newTotal: { label: totals.merchant_label, amount: walletAmount(totals.total_minor), type: 'final' },
    newLineItems: [
      { label: 'Subtotal', amount: walletAmount(totals.items_minor), type: 'final' },
      { label: 'Delivery', amount: walletAmount(totals.shipping_minor), type: 'final' },
    ],
    newShippingMethods: totals.shipping_options.map((o) => ({
      label: o.label,
      detail: o.detail,
      amount: walletAmount(o.amount_minor),
      identifier: o.id,
    })),
  };
}

/** A wallet contact as the API reads it (only the fields it knows: it refuses any other). */
function contactBody(contact: ApplePayContact | undefined): Record<string, unknown> {
  return {
    given_name: contact?.givenName ?? '',
    family_name: contact?.familyName ?? '',
    email_address: contact?.emailAddress ?? null,
    phone_number: contact?.phoneNumber ?? null,
    address_lines: contact?.addressLines ?? [],
    locality: contact?.locality ?? '',
    administrative_area: contact?.administrativeArea ?? null,
    postal_code: contact?.postalCode ?? '',
    country_code: contact?.countryCode ?? '',
  };
}

export interface ExpressDeps {
  /** Market path prefix ('' for the UK). */
  prefix: string;
  navigate(path: string): void;
  /** Runs once the order is paid, before going to its confirmation (the cart is closed by then). */
  ordered?(): void;
  /** Shows a message the sheet cannot (e.g. the provider is down). */
  report(message: string): void;
  win?: Window;
}

const isStock = (error: unknown): boolean => error instanceof ApiError && error.code === 'insufficient_stock';
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Opens the wallet sheet for `cart` and runs the sequence. Must be called from the click handler
 * itself: the wallet only opens on a user gesture, so no request may come before `begin()`.
 */
export function beginExpressCheckout(cart: Cart, deps: ExpressDeps): void {
  const win = deps.win ?? window;
  const Session = walletOf(win);
  const ErrorCtor = (win as unknown as { ApplePayError?: ApplePayErrorClass }).ApplePayError;
  if (Session === null) return;
  const session = new Session(APPLE_PAY_VERSION, paymentRequest(cart));
  let totals: ExpressTotals | null = null;
  // The express checkout the calls go to: '' until the start answered.
  const checkoutId = (): string => totals?.checkout_id ?? '';
  const walletError = (code: string, field: string | undefined, text: string): unknown =>
    ErrorCtor === undefined ? { code, contactField: field, message: text } : new ErrorCtor(code, field, text);
  // A stock shortage sends the shopper to the bag, which shows what ran out.
  const toBag = (): void => deps.navigate(`${deps.prefix}/bag`);

  session.onvalidatemerchant = (event) => {
    void (async () => {
      try {
        // Start (the click): the API reloads the cart and checks stock before the sheet may go on.
        totals = await startExpressCheckout();
        session.completeMerchantValidation(await postMerchantSession(checkoutId(), event.validationURL));
      } catch (error) {
        session.abort();
        if (isStock(error)) toBag();
        else deps.report(message(error));
      }
    })();
  };

  session.onshippingcontactselected = (event) => {
    void (async () => {
      const contact = event.shippingContact;
      try {
        totals = await postShippingContact(checkoutId(), {
          country_code: contact.countryCode ?? '',
          postal_code: contact.postalCode ?? null,
          locality: contact.locality ?? null,
          administrative_area: contact.administrativeArea ?? null,
        });
        session.completeShippingContactSelection(sheetUpdate(totals));
      } catch (error) {
        const base = totals === null ? sheetUpdate({ ...emptyTotals(cart) }) : sheetUpdate(totals);
        const code = error instanceof ApiError ? error.code : '';
        const text = message(error);
        const errors =
          code === 'shipping_country_not_allowed'
            ? [walletError('shippingContactInvalid', 'countryCode', text)]
            : [walletError('addressUnserviceable', undefined, text)];
        session.completeShippingContactSelection({ newTotal: base.newTotal, newShippingMethods: [], errors });
      }
    })();
  };

  session.onshippingmethodselected = (event) => {
    void (async () => {
      try {
        totals = await postShippingMethod(checkoutId(), event.shippingMethod.identifier);
      } catch (error) {
        deps.report(message(error));
      }
      const update = sheetUpdate(totals ?? emptyTotals(cart));
      session.completeShippingMethodSelection({ newTotal: update.newTotal, newLineItems: update.newLineItems });
    })();
  };

  session.onpaymentauthorized = (event) => {
    void (async () => {
      const { payment } = event;
      try {
        const order = await postAuthorize(checkoutId(), {
          payment_token: payment.token,
          shipping_contact: contactBody(payment.shippingContact),
          billing_contact: contactBody(payment.billingContact),
        });
        session.completePayment({ status: Session.STATUS_SUCCESS });
        deps.ordered?.();
        deps.navigate(order.confirmation_path);
      } catch (error) {
        session.completePayment({ status: Session.STATUS_FAILURE });
        if (isStock(error)) toBag();
        else deps.report(message(error));
      }
    })();
  };

  session.oncancel = () => undefined;
  session.begin();
}

/** Totals before the API answered: the bag's own amount, no delivery yet. */
function emptyTotals(cart: Cart): ExpressTotals {
  const items = amountMinor(cart.cart_amount);
  return {
    checkout_id: '',
    currency: cart.currency.code,
    items_minor: items,
    shipping_minor: 0,
    total_minor: items,
    merchant_label: cart.express_checkout?.merchant_label ?? '',
    country_code: cart.express_checkout?.country_code ?? 'GB',
    shipping_options: [],
    shipping_option_id: null,
  };
}
