// The address fields of the delivery and billing steps: country first (it decides the state select
// or the county field, and the postal code's label), then the address-book fields, each with its error.
import type { ReactElement } from 'react';
import { Field, SelectField } from '../../components/Field';
import { addressLabels, type AddressCountry, type AddressFields } from '../../lib/address';
import { countryOf, stateChoices } from './address-rules';

export interface AddressFormProps {
  /** Prefix of the field ids (`delivery`, `billing`): both forms never share a page, ids stay unique anyway. */
  id: string;
  /** The autocomplete section, so the browser fills the right saved address. */
  section: 'shipping' | 'billing';
  value: AddressFields;
  onChange(next: AddressFields): void;
  countries: readonly AddressCountry[];
  /** Keyed `address.<name>`, as the API names them. */
  errors: Record<string, string>;
}

const TEXT_FIELDS: [keyof AddressFields, string, string][] = [
  ['first_name', 'First name', 'given-name'],
  ['last_name', 'Last name', 'family-name'],
  ['street_name', 'Street name', 'address-line1'],
  ['house_number', 'House or apartment number', 'address-line2'],
  ['city', 'City', 'address-level2'],
];

export function AddressForm({ id, section, value, onChange, countries, errors }: AddressFormProps): ReactElement {
  const country = countryOf(countries, value.country_code);
  const states = stateChoices(country);
  const labels = addressLabels(value.country_code);
  const error = (name: keyof AddressFields): string | null => errors[`address.${name}`] ?? null;
  const set = (name: keyof AddressFields) => (next: string) => onChange({ ...value, [name]: next });
  const changeCountry = (code: string): void => {
    // A state belongs to its country: keep it only if the new country lists it.
    const keep = stateChoices(countryOf(countries, code)).some((s) => s.value === value.state_or_province);
    onChange({ ...value, country_code: code, state_or_province: keep ? value.state_or_province : '' });
  };
  return (
    <div className="form__fields">
      <SelectField
        id={`${id}-country_code`}
        label="Country"
        value={value.country_code}
        onChange={changeCountry}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        placeholder="Select a country"
        error={error('country_code')}
        autoComplete={`${section} country`}
        required
      />
      {TEXT_FIELDS.map(([name, label, token]) => (
        <Field key={name} id={`${id}-${name}`} label={label} value={value[name]} onChange={set(name)} error={error(name)} autoComplete={`${section} ${token}`} required />
      ))}
      {states.length > 0 ? (
        <SelectField
          id={`${id}-state_or_province`}
          label={labels.region?.label ?? 'State'}
          value={value.state_or_province}
          onChange={set('state_or_province')}
          options={states}
          placeholder={`Select a ${(labels.region?.label ?? 'State').toLowerCase()}`}
          error={error('state_or_province')}
          autoComplete={`${section} address-level1`}
          required
        />
      ) : (
        labels.region !== null && (
          <Field
            id={`${id}-state_or_province`}
            label={labels.region.label}
            value={value.state_or_province}
            onChange={set('state_or_province')}
            error={error('state_or_province')}
            autoComplete={`${section} address-level1`}
            required={labels.region.required}
          />
        )
      )}
      <Field id={`${id}-postal_code`} label={labels.postal.label} value={value.postal_code} onChange={set('postal_code')} error={error('postal_code')} autoComplete={`${section} postal-code`} required />
      <Field id={`${id}-phone`} label="Phone number" type="tel" value={value.phone} onChange={set('phone')} error={error('phone')} autoComplete={`${section} tel`} required />
    </div>
  );
}
