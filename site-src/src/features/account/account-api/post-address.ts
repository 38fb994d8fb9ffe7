// POST /customer/addresses: adds an address to the signed-in customer's address book.
import { api } from '../../../lib/api';
import type { AddressFields } from '../../../lib/address';

export async function postAddress(address: AddressFields): Promise<void> {
  await api('POST', '/customer/addresses', address);
}
