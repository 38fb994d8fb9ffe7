// The wallet sheets of the payment step. Apple Pay: its merchant session through the API, then
// Place order with the wallet's payment token. Google Pay: the browser's Payment Request sheet,
// then Place order with its token. Each sheet opens in the click itself (wallets open only on a
// user gesture) and closes with the order's result; the amount is the API's, never the page's.
import { APPLE_PAY_VERSION, walletAmount, walletOf, type ApplePayPaymentRequest } from '../../lib/apple-pay';
import type { PaymentMethod, PaymentMethods } from './checkout-api/get-payment-methods';
import { postApplePaySession } from './checkout-api/post-apple-pay-session';
import { messageOf } from './steps';
import { NOT_COMPLETED, PAGE, submitOrder, type OrderDeps, type OrderOutcome } from './submit-order';
import { googlePayRequest } from './wallets';

/** `cancelled`: the shopper closed the sheet; nothing was paid and there is nothing to say. */
export type WalletOutcome = OrderOutcome | { kind: 'cancelled' };

/** The shop trades from the UK: the merchant's country on the Apple Pay sheet. */
const MERCHANT_COUNTRY = 'GB';
/** The provider's card brands → Apple Pay's network names. */
const APPLE_NETWORKS: Record<string, string> = { visa: 'visa', mc: 'masterCard', amex: 'amex', discover: 'discover', maestro: 'maestro' };

/** The Apple Pay sheet's request: the shop as label, the checkout's total, the provider's networks. */
export function applePayRequest(method: PaymentMethod, offer: PaymentMethods): ApplePayPaymentRequest {
  const networks = (method.brands ?? []).map((b) => APPLE_NETWORKS[b]).filter((n): n is string => n !== undefined);
  return {
    countryCode: MERCHANT_COUNTRY,
    currencyCode: offer.currency,
    merchantCapabilities: ['supports3DS'],
    supportedNetworks: networks.length > 0 ? networks : ['visa', 'masterCard'],
    total: { label: offer.merchant_name, amount: walletAmount(Math.round(offer.amount * 100)), type: 'final' },
  };
}

/**
 * Apple Pay: the sheet, its merchant validation, then Place order with the token. A refused
 * payment shows in the sheet, where the shopper may try another card; the promise settles when
 * the page leaves or the sheet closes (with the last refusal, if any).
 */
export function payWithApplePay(checkoutId: string, prefix: string, method: PaymentMethod, offer: PaymentMethods, deps: OrderDeps = PAGE, win: Window = window): Promise<WalletOutcome> {
  return new Promise((resolve) => {
    const Session = walletOf(win);
    if (Session === null) {
      resolve({ kind: 'failed', message: NOT_COMPLETED });
      return;
    }
    const session = new Session(APPLE_PAY_VERSION, applePayRequest(method, offer));
    let refusal: string | null = null;
    session.onvalidatemerchant = (event) => {
      postApplePaySession(checkoutId, event.validationURL).then(
        (merchantSession) => session.completeMerchantValidation(merchantSession),
        (error: unknown) => {
          session.abort();
          resolve({ kind: 'failed', message: messageOf(error) });
        },
      );
    };
    session.onpaymentauthorized = (event) => {
      let paid = false;
      const sheet: OrderDeps = {
        ...deps,
        confirmed: () => {
          paid = true;
          session.completePayment({ status: Session.STATUS_SUCCESS });
        },
        navigate: (url) => {
          // Leaving for the bag (stock) or a step: the sheet must not stay open over it.
          if (!paid) session.completePayment({ status: Session.STATUS_FAILURE });
          deps.navigate(url);
        },
      };
      submitOrder(checkoutId, prefix, { method: 'applepay', token: JSON.stringify(event.payment.token) }, sheet).then(
        (outcome) => {
          if (outcome.kind === 'left') resolve(outcome);
          else {
            refusal = outcome.message;
            session.completePayment({ status: Session.STATUS_FAILURE });
          }
        },
        (error: unknown) => {
          refusal = messageOf(error);
          session.completePayment({ status: Session.STATUS_FAILURE });
        },
      );
    };
    session.oncancel = () => resolve(refusal === null ? { kind: 'cancelled' } : { kind: 'failed', message: refusal });
    session.begin();
  });
}

/** Google Pay's token in the sheet's answer (its PaymentData). */
function googlePayToken(details: unknown): string | null {
  const token = (details as { paymentMethodData?: { tokenizationData?: { token?: unknown } } } | null)?.paymentMethodData?.tokenizationData?.token;
  return typeof token === 'string' && token !== '' ? token : null;
}

/** Google Pay: the browser's sheet, then Place order with its token; the sheet closes with the result. */
export async function payWithGooglePay(checkoutId: string, prefix: string, method: PaymentMethod, offer: PaymentMethods, deps: OrderDeps = PAGE, win: Window = window): Promise<WalletOutcome> {
  const request = googlePayRequest(method, offer, win);
  if (request === null) return { kind: 'failed', message: NOT_COMPLETED };
  let response: PaymentResponse;
  try {
    response = await request.show();
  } catch (error) {
    return error instanceof DOMException && error.name === 'AbortError' ? { kind: 'cancelled' } : { kind: 'failed', message: NOT_COMPLETED };
  }
  const close = (result: PaymentComplete): Promise<void> => response.complete(result).catch(() => undefined);
  const token = googlePayToken(response.details);
  if (token === null) {
    await close('fail');
    return { kind: 'failed', message: NOT_COMPLETED };
  }
  let paid = false;
  const sheet: OrderDeps = {
    ...deps,
    confirmed: () => {
      paid = true;
    },
    navigate: (url) => {
      void close(paid ? 'success' : 'fail').then(() => deps.navigate(url));
    },
  };
  const outcome = await submitOrder(checkoutId, prefix, { method: 'googlepay', token }, sheet).catch((error: unknown): OrderOutcome => ({ kind: 'failed', message: messageOf(error) }));
  if (outcome.kind === 'failed') await close('fail');
  return outcome;
}
