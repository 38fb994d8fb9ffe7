// POST /customer/addresses/{id}/default: makes one saved address the default (listed first).
import { api } from '../../../lib/api';
import { addressPath } from './address-path';

export async function postDefaultAddress(id: string): Promise<void> {
  await api('POST', `${addressPath(id)}/default`, {});
}
