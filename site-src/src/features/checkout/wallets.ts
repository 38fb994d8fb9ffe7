// Which of the provider's payment methods this browser can use: the wallets only where the browser
// says it can pay with them (never a dead button), every other listed method as listed.
import type { PaymentMethod, PaymentMethods } from './checkout-api/get-payment-methods';

interface ApplePayCheck {
  canMakePayments(): boolean;
}

/** The parts of `window` the checks read (tests hand in their own). */
export interface WalletWindow {
  ApplePaySession?: ApplePayCheck;
  PaymentRequest?: typeof PaymentRequest;
}

/** Google Pay's Payment Request method data: cards, as the provider accepts them. */
const GOOGLE_PAY_DATA = {
  apiVersion: 2,
  apiVersionMinor: 0,
  allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['AMEX', 'MASTERCARD', 'VISA'] } }],
};

/** A browser that never answers must not hold the payment step up. */
const WALLET_CHECK_MS = 2000;

export function applePayAvailable(win: WalletWindow): boolean {
  try {
    return win.ApplePaySession?.canMakePayments() === true;
  } catch {
    // Safari throws outside a secure context.
    return false;
  }
}

export async function googlePayAvailable(win: WalletWindow, amount: number, currency: string): Promise<boolean> {
  const Request = win.PaymentRequest;
  if (typeof Request !== 'function') return false;
  try {
    const request = new Request([{ supportedMethods: 'https://google.com/pay', data: GOOGLE_PAY_DATA }], {
      total: { label: 'Total', amount: { currency, value: amount.toFixed(2) } },
    });
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), WALLET_CHECK_MS));
    return (await Promise.race([request.canMakePayment(), timeout])) === true;
  } catch {
    return false;
  }
}

const KNOWN = new Set(['scheme', 'giftcard', 'paypal', 'klarna', 'applepay', 'googlepay']);

/** The listed methods this browser can use, in the provider's order. */
export async function usableMethods(answer: PaymentMethods, win: WalletWindow = window as unknown as WalletWindow): Promise<PaymentMethod[]> {
  const usable = await Promise.all(
    answer.methods.map((method) => {
      if (method.type === 'applepay') return applePayAvailable(win);
      if (method.type === 'googlepay') return googlePayAvailable(win, answer.amount, answer.currency);
      return KNOWN.has(method.type);
    }),
  );
  return answer.methods.filter((_, index) => usable[index]);
}
