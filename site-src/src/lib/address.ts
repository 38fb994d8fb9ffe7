// The address-book shape (docs/api.md /customer/addresses), shared by my-account, the checkout's
// delivery and billing addresses and the order confirmation: one shape, so no screen maps fields.

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

/** A country an address form offers, with its states where it has a list of them. */
export interface AddressCountry {
  code: string;
  name: string;
  /** Names, or `{code, name}` pairs (the value is the code). */
  states: readonly (string | { code: string; name: string })[];
}

/** The countries the address book takes (the API's list): the checkout offers its market's subset. */
export const ADDRESS_COUNTRIES: readonly AddressCountry[] = [
  { code: 'GB', name: 'United Kingdom', states: [] },
  { code: 'US', name: 'United States', states: ['California', 'Nevada'] },
  { code: 'AT', name: 'Austria', states: [] },
  { code: 'DE', name: 'Germany', states: [] },
  { code: 'NL', name: 'Netherlands', states: [] },
  { code: 'IE', name: 'Ireland', states: [] },
  { code: 'JE', name: 'Jersey', states: [] },
  { code: 'GG', name: 'Guernsey', states: [] },
];

/** A country's name in the address book's list, or its code when it is not there. */
export function countryName(code: string): string {
  return ADDRESS_COUNTRIES.find((c) => c.code === code)?.name ?? code;
}

/**
 * What an address form asks for in a country: the UK a postcode and an optional county, the US a
 * ZIP code and a state (required), elsewhere a postcode alone. Every address form uses this rule,
 * as the API does for its messages.
 */
export interface AddressLabels {
  /** The state or county field (`state_or_province`); null: the country has none. */
  region: { label: string; required: boolean; message: string } | null;
  postal: { label: string; message: string };
}

export function addressLabels(countryCode: string): AddressLabels {
  switch (countryCode.toUpperCase()) {
    case 'US':
      return { region: { label: 'State', required: true, message: 'Please enter a state' }, postal: { label: 'ZIP code', message: 'Please enter a ZIP code' } };
    case 'GB':
    case 'UK':
      return { region: { label: 'County', required: false, message: '' }, postal: { label: 'Postcode', message: 'Please enter a postcode' } };
    default:
      return { region: null, postal: { label: 'Postcode', message: 'Please enter a postcode' } };
  }
}

export function emptyAddress(countryCode = ''): AddressFields {
  return { first_name: '', last_name: '', street_name: '', house_number: '', city: '', state_or_province: '', postal_code: '', country_code: countryCode, phone: '' };
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
