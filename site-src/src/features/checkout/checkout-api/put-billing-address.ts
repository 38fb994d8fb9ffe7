// PUT /checkout/{id}/billing-address: the delivery address again, or another one; 400
// 'Billing address is required' (field `billing_address`) when none is given.
import type { AddressFields } from '../../../lib/address';
import { api } from '../../../lib/api';
import { checkoutPath, type Checkout } from './checkout-view';

export type BillingRequest = { same_as_delivery: true } | { address: AddressFields } | { address_id: string };

export function putBillingAddress(id: string, request: BillingRequest): Promise<Checkout> {
  return api<Checkout>('PUT', `${checkoutPath(id)}/billing-address`, request);
}
