// The order confirmation's offer to a guest: create an account for the checkout's email (title and
// a password that follows the account rules), or — when one exists — the spec's message and a link
// to reset the password.
import { useState, type ReactElement } from 'react';
import { Field, Form, FormError, SelectField } from '../../components/Field';
import { TITLES } from '../account/account';
import { track } from '../../lib/analytics';
import { ApiError } from '../../lib/api';
import type { GuestAccount } from '../../lib/orders';
import { passwordError } from '../../lib/account-rules';
import { createOrderAccount } from './checkout-api/create-order-account';
import { fieldsOf, focusFirstInvalid, messageOf, navigate } from './steps';

export const ACCOUNT_EXISTS = 'An account already exists for the email you used to checkout. Please reset your password.';
const TITLE_CHOICES = TITLES.map((t) => ({ value: t, label: t }));

export function GuestAccountOffer({ guest, checkoutId, orderId, prefix }: { guest: GuestAccount; checkoutId: string; orderId: string; prefix: string }): ReactElement {
  const [exists, setExists] = useState(guest.account_exists);
  const [title, setTitle] = useState('');
  const [password, setPassword] = useState('');
  const [news, setNews] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (exists) {
    return (
      <section className="checkout__section" aria-labelledby="guest-account-title">
        <h2 className="checkout__title" id="guest-account-title">
          Your account
        </h2>
        <p role="status">{ACCOUNT_EXISTS}</p>
        <a className="btn btn--secondary" href={`${prefix}/forgot-password`}>
          Reset your password
        </a>
      </section>
    );
  }

  const submit = async (): Promise<void> => {
    const found: Record<string, string> = {};
    if (title === '') found.title = 'Please select a title';
    const weak = passwordError(password);
    if (weak !== null) found.password = weak;
    setErrors(found);
    setMessage(null);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid('guest-account');
      return;
    }
    setBusy(true);
    try {
      await createOrderAccount(checkoutId, orderId, { title, password, preferenceEmail: news });
      track('sign_up', { method: 'order_confirmation' });
      navigate(`${prefix}/my-account`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'account_exists') {
        setExists(true);
        return;
      }
      setErrors(fieldsOf(error));
      setMessage(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <section className="checkout__section" id="guest-account" aria-labelledby="guest-account-title">
      <h2 className="checkout__title" id="guest-account-title">
        Create an account
      </h2>
      <p>Follow this order and check out faster next time.</p>
      <Form onSubmit={() => void submit()}>
        <FormError message={message} />
        <Field id="account-email" label="Email address" type="email" value={guest.email} onChange={() => undefined} autoComplete="email" readOnly />
        <SelectField id="account-title" label="Title" value={title} onChange={setTitle} options={TITLE_CHOICES} placeholder="Select a title" error={errors.title ?? null} required />
        <Field id="account-password" label="Password" type="password" value={password} onChange={setPassword} error={errors.password ?? null} autoComplete="new-password" required />
        <p className="field__hint">At least 7 characters, including a letter and a number.</p>
        <label className="check">
          <input type="checkbox" checked={news} onChange={(event) => setNews(event.target.checked)} /> Email me news and offers
        </label>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Loading...' : 'Create account'}
        </button>
      </Form>
    </section>
  );
}
