// My profile (/MyAccount/MyProfile): the customer's details (title, names, phone), and the
// marketing preferences — email and post — each consent given also recorded through the
// marketing-consent endpoint (an email sign-up is confirmed by email, with its unsubscribe link).
import { useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../../components/Field';
import { ApiError, messageOf } from '../../lib/api';
import { TITLES, updateCustomer } from './account';
import { postMarketingConsent } from './account-api/post-marketing-consent';
import { nameError } from '../../lib/account-rules';
import type { Customer } from '../../lib/store';

const formField = (customer: Customer, name: string): string | boolean => customer.form_fields.find((f) => f.name === name)?.value ?? '';

function Details({ customer, onSaved }: { customer: Customer; onSaved(c: Customer): void }): ReactElement {
  const [first, setFirst] = useState(customer.first_name);
  const [last, setLast] = useState(customer.last_name);
  const [phone, setPhone] = useState(customer.phone);
  const [title, setTitle] = useState(String(formField(customer, 'Title')));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (): Promise<void> => {
    const found = Object.fromEntries(
      [['first_name', nameError(first, 'First name')], ['last_name', nameError(last, 'Last name')]].filter((e): e is [string, string] => e[1] !== null),
    );
    setErrors(found);
    setSaved(false);
    if (Object.keys(found).length > 0) return;
    try {
      const updated = await updateCustomer({
        first_name: first.trim(),
        last_name: last.trim(),
        phone: phone.trim(),
        form_fields: title === '' ? [] : [{ name: 'Title', value: title }],
      });
      setMessage(null);
      setSaved(true);
      onSaved(updated);
    } catch (error) {
      setMessage(messageOf(error));
      if (error instanceof ApiError) setErrors(error.fields);
    }
  };

  return (
    <Form onSubmit={() => void save()}>
      <h2 className="account__title">Your details</h2>
      <p>{customer.email}</p>
      <FormError message={message} />
      <div className="field">
        <label className="field__label" htmlFor="profile-title">
          Title
        </label>
        <select className="field__input" id="profile-title" value={title} onChange={(event) => setTitle(event.target.value)}>
          <option value="">Select a title</option>
          {TITLES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </div>
      <Field id="profile-first" label="First name" value={first} onChange={setFirst} error={errors.first_name ?? null} autoComplete="given-name" required />
      <Field id="profile-last" label="Last name" value={last} onChange={setLast} error={errors.last_name ?? null} autoComplete="family-name" required />
      <Field id="profile-phone" label="Phone number" type="tel" value={phone} onChange={setPhone} error={errors.phone ?? null} autoComplete="tel" />
      <button type="submit" className="btn btn--primary">
        Save changes
      </button>
      {saved && <p role="status">Your details have been saved.</p>}
    </Form>
  );
}

const CHANNELS = [
  ['Preference Email', 'marketing_email', 'Email me news and offers'],
  ['Preference Post', 'marketing_post', 'Send me news and offers by post'],
] as const;

function MarketingPreferences({ customer, onSaved }: { customer: Customer; onSaved(c: Customer): void }): ReactElement {
  // The API answers a preference as a boolean (older answers said "true").
  const given = (field: string): boolean => [true, 'true'].includes(formField(customer, field));
  const [chosen, setChosen] = useState<Record<string, boolean>>(() => Object.fromEntries(CHANNELS.map(([field]) => [field, given(field)])));
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (): Promise<void> => {
    setSaved(false);
    try {
      // A consent newly given is recorded as such (and an email one confirmed by email)...
      for (const [field, category] of CHANNELS) {
        if (chosen[field] === true && !given(field)) await postMarketingConsent(customer.email, category);
      }
      // ...and the profile keeps both choices, withdrawals included.
      const updated = await updateCustomer({ form_fields: CHANNELS.map(([field]) => ({ name: field, value: String(chosen[field] === true) })) });
      setMessage(null);
      setSaved(true);
      onSaved(updated);
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  return (
    <Form onSubmit={() => void save()}>
      <h2 className="account__title">Marketing preferences</h2>
      <FormError message={message} />
      <fieldset className="form__group">
        <legend>How we may contact you</legend>
        {CHANNELS.map(([field, , label]) => (
          <label className="check" key={field}>
            <input type="checkbox" checked={chosen[field] === true} onChange={(event) => setChosen({ ...chosen, [field]: event.target.checked })} /> {label}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn--primary">
        Save preferences
      </button>
      {saved && <p role="status">Your preferences have been saved.</p>}
    </Form>
  );
}

export function ProfilePage({ customer, onSaved }: { customer: Customer; onSaved(c: Customer): void }): ReactElement {
  return (
    <>
      <Details customer={customer} onSaved={onSaved} />
      <MarketingPreferences customer={customer} onSaved={onSaved} />
    </>
  );
}
