// Which of the provider's payment methods the payment step lists: the ones this browser can
// complete. Card and gift card details are tokenised by the provider; PayPal and Klarna send the
// shopper to approve; Apple Pay and Google Pay show only where the browser's wallet can pay now
// (never a button that cannot pay), and their sheets are in wallet-pay.ts.
import { walletOf } from '../../lib/apple-pay';
import type { PaymentMethod, PaymentMethods } from './checkout-api/get-payment-methods';

const ALWAYS = new Set(['scheme', 'giftcard', 'paypal', 'klarna']);

/** Google Pay's payment method identifier in the browser's Payment Request API. */
export const GOOGLE_PAY = 'https://google.com/pay';
/** How long the wallet check may take before Google Pay is left out (the list must not wait). */
const WALLET_CHECK_MS = 1500;

export interface WalletSupport {
  applePay: boolean;
  googlePay: boolean;
}

export const NO_WALLETS: WalletSupport = { applePay: false, googlePay: false };

/** The provider's card brands → Google Pay's network names. */
const GOOGLE_NETWORKS: Record<string, string> = { visa: 'VISA', mc: 'MASTERCARD', amex: 'AMEX', discover: 'DISCOVER' };

/** Google Pay's PaymentDataRequest for this method, shop and amount (the provider's gateway). */
export function googlePayData(method: PaymentMethod, offer: PaymentMethods): Record<string, unknown> {
  const config = method.configuration ?? {};
  const networks = (method.brands ?? []).map((b) => GOOGLE_NETWORKS[b]).filter((n): n is string => n !== undefined);
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    environment: config.environment ?? 'PRODUCTION',
    merchantInfo: { merchantName: offer.merchant_name, ...(config.merchant_id !== undefined ? { merchantId: config.merchant_id } : {}) },
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: networks.length > 0 ? networks : ['VISA', 'MASTERCARD'] },
        tokenizationSpecification: {
          type: 'PAYMENT_GATEWAY',
          parameters: { gateway: config.gateway ?? '', gatewayMerchantId: config.gateway_merchant_id ?? '' },
        },
      },
    ],
  };
}

/** The browser's payment sheet for Google Pay with this offer's total; null where the browser has no Payment Request API. */
export function googlePayRequest(method: PaymentMethod, offer: PaymentMethods, win: Window = window): PaymentRequest | null {
  const Request = (win as unknown as { PaymentRequest?: typeof PaymentRequest }).PaymentRequest;
  if (typeof Request !== 'function') return null;
  try {
    return new Request([{ supportedMethods: GOOGLE_PAY, data: googlePayData(method, offer) }], {
      total: { label: offer.merchant_name, amount: { currency: offer.currency, value: offer.amount.toFixed(2) } },
    });
  } catch {
    return null;
  }
}

/** Whether this browser's wallets can pay the offer now (asked once per list). */
export async function walletSupport(offer: PaymentMethods, win: Window = window): Promise<WalletSupport> {
  const listed = (type: string): PaymentMethod | undefined => offer.methods.find((m) => m.type === type);
  const applePay = listed('applepay') !== undefined && walletOf(win) !== null;
  const google = listed('googlepay');
  const request = google === undefined ? null : googlePayRequest(google, offer, win);
  let googlePay = false;
  if (request !== null) {
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), WALLET_CHECK_MS));
    googlePay = await Promise.race([request.canMakePayment().catch(() => false), timeout]);
  }
  return { applePay, googlePay };
}

/** The listed methods this step can complete in this browser, in the provider's order. */
export function usableMethods(offer: PaymentMethods, wallets: WalletSupport): PaymentMethod[] {
  return offer.methods.filter(
    (method) => ALWAYS.has(method.type) || (method.type === 'applepay' && wallets.applePay) || (method.type === 'googlepay' && wallets.googlePay),
  );
}
