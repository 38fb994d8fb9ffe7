// PUT /customer/addresses/{id}: replaces one saved address with the fields given.
import { api } from '../../../lib/api';
import type { AddressFields } from '../../../lib/address';
import { addressPath } from './address-path';

export async function putAddress(id: string, address: AddressFields): Promise<void> {
  await api('PUT', addressPath(id), address);
}
