// DELETE /customer/addresses/{id}: removes one saved address.
import { api } from '../../../lib/api';
import { addressPath } from './address-path';

export async function deleteAddress(id: string): Promise<void> {
  await api('DELETE', addressPath(id));
}
