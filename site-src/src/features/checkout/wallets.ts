// Which of the provider's payment methods the payment step lists: the ones it can complete. Card
// and gift card details are tokenised by the provider; PayPal and Klarna send the shopper to
// approve. The wallets need their own sheet and token (Apple Pay is the bag's express button;
// Google Pay is not built), so they are not listed here: never a button that cannot pay.
import type { PaymentMethod, PaymentMethods } from './checkout-api/get-payment-methods';

const COMPLETABLE = new Set(['scheme', 'giftcard', 'paypal', 'klarna']);

/** The listed methods this step can complete, in the provider's order. */
export function usableMethods(answer: PaymentMethods): PaymentMethod[] {
  return answer.methods.filter((method) => COMPLETABLE.has(method.type));
}
