// The checkout address rules per country (docs/checkout.md, consignment / billing-address): each
// required field with the API's own message, keyed `address.<name>` like the API's `fields`, a
// state only where the country has states, and the postal code's name in the country.
import { addressLabels, type AddressCountry, type AddressFields } from '../../lib/address';
import type { Market } from '../../lib/api';

const REQUIRED: [keyof AddressFields, string][] = [
  ['first_name', 'Please enter a first name'],
  ['last_name', 'Please enter a last name'],
  ['street_name', 'Please enter a street name'],
  ['house_number', 'Please enter a house or apartment number'],
  ['city', 'Please enter a city'],
  ['phone', 'Please enter a phone number'],
];

export function countryOf<C extends AddressCountry>(countries: readonly C[], code: string): C | undefined {
  return countries.find((c) => c.code === code);
}

/** A country's states as select choices: names alone, or `{code, name}` pairs (the value is the code). */
export function stateChoices(country: AddressCountry | undefined): { value: string; label: string }[] {
  return (country?.states ?? []).map((s) => (typeof s === 'string' ? { value: s, label: s } : { value: s.code, label: s.name }));
}

export function addressErrors(address: AddressFields, countries: readonly AddressCountry[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [name, message] of REQUIRED) {
    if (address[name].trim() === '') errors[`address.${name}`] = message;
  }
  const country = countryOf(countries, address.country_code);
  if (country === undefined) errors['address.country_code'] = 'Please select a country';
  const states = stateChoices(country);
  const labels = addressLabels(address.country_code);
  if (states.length > 0 && !states.some((s) => s.value === address.state_or_province)) {
    errors['address.state_or_province'] = labels.region?.message ?? 'Please enter a state';
  }
  if (address.postal_code.trim() === '') {
    errors['address.postal_code'] = labels.postal.message;
  }
  return errors;
}

const HOME: Record<Market, string> = { uk: 'GB', us: 'US', eu: 'IE' };

/** The country a new address starts with: the only one offered, else the market's own if offered. */
export function defaultCountry(countries: readonly AddressCountry[], market: string): string {
  if (countries.length === 1) return countries[0]?.code ?? '';
  const home = HOME[market as Market] ?? '';
  return countryOf(countries, home) !== undefined ? home : '';
}

/** Trimmed copy for sending (the API checks the same rules on the trimmed values). */
export function trimmed(address: AddressFields): AddressFields {
  return Object.fromEntries(Object.entries(address).map(([k, v]) => [k, v.trim()])) as unknown as AddressFields;
}
