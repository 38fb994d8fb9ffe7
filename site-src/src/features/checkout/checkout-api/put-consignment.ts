// PUT /checkout/{id}/consignment: the delivery address (typed, or a saved one by id), answering the
// shipping options for it. Field errors are keyed `address.<name>`; 422 shipping_country_not_allowed
// and address_unserviceable carry the spec's messages.
import type { AddressFields } from '../../../lib/address';
import { api } from '../../../lib/api';
import { checkoutPath, type Checkout } from './checkout-view';

export type ConsignmentRequest = { address: AddressFields; save_address?: true } | { address_id: string };

export function putConsignment(id: string, request: ConsignmentRequest): Promise<Checkout> {
  return api<Checkout>('PUT', `${checkoutPath(id)}/consignment`, request);
}
