// The address-book shape (docs/api.md /customer/addresses), shared by my-account, the checkout's
// delivery and billing addresses and the order confirmation: one shape, so no screen maps fields.
import { api } from './api';

export interface AddressFields {
  first_name: string;
  last_name: string;
  street_name: string;
  house_number: string;
  city: string;
  state_or_province: string;
  postal_code: string;
  country_code: string;
  phone: string;
}

export interface SavedAddress extends AddressFields {
  id: string;
}

export function emptyAddress(countryCode = ''): AddressFields {
  return { first_name: '', last_name: '', street_name: '', house_number: '', city: '', state_or_province: '', postal_code: '', country_code: countryCode, phone: '' };
}

/** The signed-in customer's address book. */
export async function loadSavedAddresses(): Promise<SavedAddress[]> {
  return (await api<{ data: SavedAddress[] }>('GET', '/customer/addresses')).data;
}

/** The address as display lines: name, street, town, postal code, country, phone. */
export function addressLines(a: AddressFields, countryName: string = a.country_code): string[] {
  return [
    `${a.first_name} ${a.last_name}`,
    `${a.house_number} ${a.street_name}`,
    [a.city, a.state_or_province].filter((part) => part !== '').join(', '),
    a.postal_code,
    countryName,
    a.phone,
  ].map((line) => line.trim()).filter((line) => line !== '');
}
