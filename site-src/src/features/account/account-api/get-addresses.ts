// GET /customer/addresses: the signed-in customer's address book, default first.
import { api } from '../../../lib/api';
import type { SavedAddress } from '../../../lib/address';

export async function getAddresses(): Promise<SavedAddress[]> {
  return (await api<{ data: SavedAddress[] }>('GET', '/customer/addresses')).data;
}
