// GET /checkout/{id}/payment-methods: what the payment provider offers for this market and total,
// and where the browser tokenises card and gift card details (never /api).
import { api } from '../../../lib/api';
import { checkoutPath } from './checkout-view';

export type PaymentMethodType = 'scheme' | 'giftcard' | 'paypal' | 'klarna' | 'applepay' | 'googlepay';

export interface PaymentMethod {
  type: PaymentMethodType;
  name: string;
  brands?: string[];
  /** What a wallet sheet needs: Google Pay's `environment`, `gateway`, `gateway_merchant_id`. */
  configuration?: Record<string, string>;
}

export interface PaymentMethods {
  methods: PaymentMethod[];
  amount: number;
  currency: string;
  tokenize_url: string;
  /** The name a wallet sheet shows: the shop's. */
  merchant_name: string;
}

export function getPaymentMethods(id: string): Promise<PaymentMethods> {
  return api<PaymentMethods>('GET', `${checkoutPath(id)}/payment-methods`);
}
