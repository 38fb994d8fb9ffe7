// The checkout address rules per country: the UK's Postcode and an optional County, the US's ZIP
// code and a required State, elsewhere a Postcode alone, each required field's message in the API's words, and the API's own per-field
// errors (keyed `address.<name>`) shown at their fields.
import { fireEvent, render, screen } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyAddress, type AddressFields } from '../../lib/address';
import { ADDRESS, UK, US } from '../../testing/checkout-fixtures';
import { AddressForm } from './address-form';
import { addressErrors, defaultCountry } from './address-rules';

function Harness({ start, errors = {} }: { start: AddressFields; errors?: Record<string, string> }): ReactElement {
  const [value, setValue] = useState(start);
  return <AddressForm id="delivery" section="shipping" value={value} onChange={setValue} countries={[UK, US]} errors={errors} />;
}

describe('address rules per country', () => {
  it('UK: a Postcode and an optional County, no state', () => {
    render(<Harness start={emptyAddress('GB')} />);
    expect(screen.getByLabelText('Postcode *')).toBeTruthy();
    expect(screen.getByLabelText('County')).toBeTruthy();
    expect(screen.queryByLabelText(/State/)).toBeNull();
    expect(addressErrors(emptyAddress('GB'), [UK, US])).toEqual({
      'address.first_name': 'Please enter a first name',
      'address.last_name': 'Please enter a last name',
      'address.street_name': 'Please enter a street name',
      'address.house_number': 'Please enter a house or apartment number',
      'address.city': 'Please enter a city',
      'address.phone': 'Please enter a phone number',
      'address.postal_code': 'Please enter a postcode',
    });
    expect(addressErrors(ADDRESS, [UK, US])).toEqual({});
  });

  it('US: choosing the country asks for a State (required) and a ZIP code, and no county', () => {
    render(<Harness start={emptyAddress('GB')} />);
    fireEvent.change(screen.getByLabelText('Country *'), { target: { value: 'US' } });
    const state = screen.getByLabelText('State *') as HTMLSelectElement;
    expect(Array.from(state.options).map((o) => o.textContent)).toEqual(['Select a state', 'California', 'Nevada']);
    expect(screen.getByLabelText('ZIP code *')).toBeTruthy();
    expect(screen.queryByLabelText(/County/)).toBeNull();
    expect(screen.queryByLabelText(/Postcode/)).toBeNull();
    const us = { ...ADDRESS, country_code: 'US', postal_code: '' };
    expect(addressErrors(us, [UK, US])).toEqual({
      'address.state_or_province': 'Please enter a state',
      'address.postal_code': 'Please enter a ZIP code',
    });
    expect(addressErrors({ ...us, state_or_province: 'CA', postal_code: '89501' }, [UK, US])).toEqual({});
  });

  it('a country the checkout does not deliver to, or none, must be selected', () => {
    expect(addressErrors({ ...ADDRESS, country_code: '' }, [UK, US])['address.country_code']).toBe('Please select a country');
    expect(addressErrors({ ...ADDRESS, country_code: 'FR' }, [UK, US])['address.country_code']).toBe('Please select a country');
  });

  it("starts in the only country offered, else the market's own", () => {
    expect(defaultCountry([UK], 'us')).toBe('GB');
    expect(defaultCountry([UK, US], 'us')).toBe('US');
    expect(defaultCountry([UK, US], 'eu')).toBe('');
  });

  it("shows the API's per-field errors at their fields, linked by aria-describedby", () => {
    render(<Harness start={ADDRESS} errors={{ 'address.city': 'Please enter a city', 'address.country_code': 'We only ship to UK, Jersey, and Guernsey' }} />);
    const city = screen.getByLabelText('City *');
    expect(city.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(city.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Please enter a city');
    const country = screen.getByLabelText('Country *');
    expect(document.getElementById(country.getAttribute('aria-describedby') ?? '')?.textContent).toBe('We only ship to UK, Jersey, and Guernsey');
  });
});
