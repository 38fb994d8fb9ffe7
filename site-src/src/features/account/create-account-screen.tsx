// The /create-account screen: every registration field with the account rules, the title
// select, an optional address, then "check your email" (the emailed link creates the account).
// The API re-checks everything.
import { useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../../components/Field';
import { ApiError, marketOf } from '../../lib/api';
import { register, TITLES } from './account';
import { nameError, passwordError, requiredError } from '../../lib/account-rules';
import { emailError } from '../../lib/validation';
import { ADDRESS_COUNTRIES, addressLabels } from '../../lib/address';

const HOME_COUNTRY = { uk: 'GB', us: 'US', eu: 'IE' } as const;

/** The address's country: the one chosen, else the market's own (which names its fields). */
const addressCountry = (r: Registration): string => (r.country !== '' ? r.country : HOME_COUNTRY[marketOf()]);

export interface Registration {
  title: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  phone: string;
  dateOfBirth: string;
  preferenceEmail: boolean;
  preferencePost: boolean;
  addressLine1: string;
  addressLine2: string;
  city: string;
  county: string;
  postCode: string;
  country: string;
}

const EMPTY: Registration = {
  title: '', first_name: '', last_name: '', email: '', password: '', phone: '', dateOfBirth: '',
  preferenceEmail: false, preferencePost: false,
  addressLine1: '', addressLine2: '', city: '', county: '', postCode: '', country: '',
};

const hasAddress = (r: Registration): boolean =>
  [r.addressLine1, r.addressLine2, r.city, r.county, r.postCode, r.country].some((v) => v.trim() !== '');

/** Every problem, keyed like the API's `fields` (address ones as `address.<field>`). */
export function registrationErrors(r: Registration): Record<string, string> {
  const errors: Record<string, string | null> = {
    title: r.title === '' ? 'Please select a title' : null,
    first_name: nameError(r.first_name, 'First name'),
    last_name: nameError(r.last_name, 'Last name'),
    email: emailError(r.email),
    password: passwordError(r.password),
  };
  if (hasAddress(r)) {
    errors['address.addressLine1'] = requiredError(r.addressLine1, 'Please enter your street name');
    errors['address.city'] = requiredError(r.city, 'Please enter your city');
    errors['address.postCode'] = requiredError(r.postCode, addressLabels(addressCountry(r)).postal.message);
    errors['address.country'] = requiredError(r.country, 'Please select your country');
  }
  return Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => e[1] !== null));
}

export function registrationPayload(r: Registration): Record<string, unknown> {
  return {
    email: r.email.trim(),
    password: r.password,
    first_name: r.first_name.trim(),
    last_name: r.last_name.trim(),
    title: r.title,
    phone: r.phone.trim(),
    dateOfBirth: r.dateOfBirth,
    preferenceEmail: r.preferenceEmail,
    preferencePost: r.preferencePost,
    countryIso2: addressCountry(r),
    custom_fields: [],
    accepts_product_review_abandoned_cart_emails: r.preferenceEmail,
    addressFinder: null,
    ...(hasAddress(r)
      ? { address: { addressLine1: r.addressLine1.trim(), addressLine2: r.addressLine2.trim(), city: r.city.trim(), county: r.county.trim(), postCode: r.postCode.trim(), country: r.country } }
      : {}),
  };
}

export default function CreateAccountScreen({ prefix }: { prefix: string }): ReactElement {
  const [form, setForm] = useState<Registration>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const set = <K extends keyof Registration>(key: K) => (value: Registration[K]) => setForm({ ...form, [key]: value });
  // A UK address asks for a county and a postcode, a US one for a state and a ZIP code.
  const labels = addressLabels(addressCountry(form));
  const text = (key: Exclude<keyof Registration, 'preferenceEmail' | 'preferencePost'>, label: string, extra: { type?: 'text' | 'email' | 'password' | 'tel' | 'date'; autoComplete?: string; required?: boolean; errorKey?: string } = {}): ReactElement => (
    <Field id={`reg-${key}`} label={label} value={form[key]} onChange={set(key)} error={errors[extra.errorKey ?? key] ?? null} type={extra.type} autoComplete={extra.autoComplete} required={extra.required} />
  );

  const submit = async (): Promise<void> => {
    const found = registrationErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage('Please check the highlighted fields.');
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await register(registrationPayload(form));
      setSentTo(form.email.trim());
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      if (error instanceof ApiError) setErrors(error.fields);
      setBusy(false);
    }
  };

  if (sentTo !== null) return <ConfirmationSent email={sentTo} prefix={prefix} />;

  return (
    <Form className="form form--wide" onSubmit={() => void submit()}>
      <FormError message={message} />
      <div className="field">
        <label className="field__label" htmlFor="reg-title">
          Title *
        </label>
        <select
          className="field__input"
          id="reg-title"
          value={form.title}
          required
          aria-invalid={errors.title !== undefined}
          aria-describedby={errors.title !== undefined ? 'reg-title-error' : undefined}
          onChange={(event) => set('title')(event.target.value)}
        >
          <option value="">Select a title</option>
          {TITLES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        {errors.title !== undefined && (
          <p className="field__error" id="reg-title-error">
            {errors.title}
          </p>
        )}
      </div>
      {text('first_name', 'First name', { autoComplete: 'given-name', required: true })}
      {text('last_name', 'Last name', { autoComplete: 'family-name', required: true })}
      {text('email', 'Email address', { type: 'email', autoComplete: 'email', required: true })}
      {text('password', 'Password', { type: 'password', autoComplete: 'new-password', required: true })}
      <p className="field__hint">At least 7 characters, including a letter and a number.</p>
      {text('phone', 'Phone number', { type: 'tel', autoComplete: 'tel' })}
      {text('dateOfBirth', 'Date of birth', { type: 'date', autoComplete: 'bday' })}
      <fieldset className="form__group">
        <legend>Address (optional)</legend>
        {text('addressLine1', 'Street name', { autoComplete: 'address-line1', errorKey: 'address.addressLine1' })}
        {text('addressLine2', 'House/apartment number', { autoComplete: 'address-line2', errorKey: 'address.addressLine2' })}
        {text('city', 'City', { autoComplete: 'address-level2', errorKey: 'address.city' })}
        {labels.region !== null && text('county', labels.region.label, { autoComplete: 'address-level1', errorKey: 'address.county' })}
        {text('postCode', labels.postal.label, { autoComplete: 'postal-code', errorKey: 'address.postCode' })}
        <div className="field">
          <label className="field__label" htmlFor="reg-country">
            Country
          </label>
          <select className="field__input" id="reg-country" value={form.country} onChange={(event) => set('country')(event.target.value)}>
            <option value="">Select a country</option>
            {ADDRESS_COUNTRIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {errors['address.country'] !== undefined && <p className="field__error">{errors['address.country']}</p>}
        </div>
      </fieldset>
      <fieldset className="form__group">
        <legend>Marketing preferences</legend>
        <label className="check">
          <input type="checkbox" checked={form.preferenceEmail} onChange={(event) => set('preferenceEmail')(event.target.checked)} /> Email me news and offers
        </label>
        <label className="check">
          <input type="checkbox" checked={form.preferencePost} onChange={(event) => set('preferencePost')(event.target.checked)} /> Send me news and offers by post
        </label>
      </fieldset>
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Loading...' : 'Create account'}
      </button>
      <p className="form__links">
        Already have an account? <a href={`${prefix}/login`}>Sign in</a>
      </p>
    </Form>
  );
}

/** After registering: the account exists once the emailed link is opened. */
function ConfirmationSent({ email, prefix }: { email: string; prefix: string }): ReactElement {
  return (
    <div className="form" role="status">
      <h2>{CONFIRMATION_SENT_TITLE}</h2>
      <p>
        We have sent an email to <strong>{email}</strong>. Open the link in it within 24 hours to confirm your address and sign in.
      </p>
      <p>
        If you already have an account with this address, the email tells you how to sign in instead. <a href={`${prefix}/login`}>Sign in</a>
      </p>
    </div>
  );
}

export const CONFIRMATION_SENT_TITLE = 'Check your email';
