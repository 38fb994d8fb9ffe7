// Apple Pay JS (Safari's `window.ApplePaySession`, not in the DOM types): the parts the bag's
// express button and the checkout's payment step use, whether this browser can pay with it now,
// and its amounts (decimal strings).

/** Apple Pay JS version used (3: shipping contact and method updates with errors). */
export const APPLE_PAY_VERSION = 3;

export interface ApplePayLineItem {
  label: string;
  amount: string;
  type?: 'final' | 'pending';
}

export interface ApplePayShippingMethod {
  label: string;
  detail: string;
  amount: string;
  identifier: string;
}

export interface ApplePayContact {
  givenName?: string;
  familyName?: string;
  emailAddress?: string;
  phoneNumber?: string;
  addressLines?: string[];
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
}

export interface ApplePayPaymentRequest {
  countryCode: string;
  currencyCode: string;
  merchantCapabilities: string[];
  supportedNetworks: string[];
  total: ApplePayLineItem;
  requiredShippingContactFields?: string[];
  requiredBillingContactFields?: string[];
}

export interface ApplePayUpdate {
  newTotal: ApplePayLineItem;
  newLineItems?: ApplePayLineItem[];
  newShippingMethods?: ApplePayShippingMethod[];
  errors?: unknown[];
}

export interface ApplePaySessionLike {
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
  onshippingcontactselected: ((event: { shippingContact: ApplePayContact }) => void) | null;
  onshippingmethodselected: ((event: { shippingMethod: ApplePayShippingMethod }) => void) | null;
  onpaymentauthorized:
    | ((event: { payment: { token: unknown; shippingContact?: ApplePayContact; billingContact?: ApplePayContact } }) => void)
    | null;
  oncancel: ((event: unknown) => void) | null;
  begin(): void;
  abort(): void;
  completeMerchantValidation(merchantSession: unknown): void;
  completeShippingContactSelection(update: ApplePayUpdate): void;
  completeShippingMethodSelection(update: ApplePayUpdate): void;
  completePayment(result: { status: number; errors?: unknown[] }): void;
}

export interface ApplePaySessionClass {
  new (version: number, request: ApplePayPaymentRequest): ApplePaySessionLike;
  canMakePayments(): boolean;
  readonly STATUS_SUCCESS: number;
  readonly STATUS_FAILURE: number;
}

export type ApplePayErrorClass = new (code: string, contactField?: string, message?: string) => unknown;

export interface WalletWindow {
  ApplePaySession?: ApplePaySessionClass;
  ApplePayError?: ApplePayErrorClass;
}

/** Apple Pay amounts are decimal strings: 12345 → "123.45". */
export function walletAmount(minor: number): string {
  return (minor / 100).toFixed(2);
}

/** The wallet's constructor when this browser can pay with it now; null otherwise. */
export function walletOf(win: Window = window): ApplePaySessionClass | null {
  const Session = (win as unknown as WalletWindow).ApplePaySession;
  if (typeof Session !== 'function') return null;
  try {
    return Session.canMakePayments() ? Session : null;
  } catch {
    return null;
  }
}
