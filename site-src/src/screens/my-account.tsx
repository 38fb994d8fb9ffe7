// The my-account screen: profile, marketing preferences, saved addresses and order history (the
// last 12 months from the API; an empty state when there are none), and Sign out. Guests are
// asked to sign in.
import { useEffect, useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../components/Field';
import { api, ApiError } from '../lib/api';
import { loadCustomer, signOut, TITLES } from '../lib/account';
import { OrderSummary } from '../components/OrderSummary';
import { loadOrderHistory, type Order } from '../lib/orders';
import { isSignedInHint } from '../lib/cookies';
import { nameError, requiredError } from '../lib/validation';
import type { Customer } from '../lib/store';
import { emptyAddress, loadSavedAddresses, type AddressFields, type SavedAddress } from '../lib/address';

type AddressForm = AddressFields;
const NO_ADDRESS: AddressForm = emptyAddress('GB');

const ADDRESS_RULES: [keyof AddressForm, string, string][] = [
  ['first_name', 'First name', 'Please enter your first name'],
  ['last_name', 'Last name', 'Please enter your last name'],
  ['street_name', 'Street name', 'Please enter your street name'],
  ['house_number', 'House/apartment number', 'Please enter your house/apartment number'],
  ['city', 'City', 'Please enter your city'],
  ['state_or_province', 'State/province', 'Please enter your state/province'],
  ['postal_code', 'Zip code', 'Please enter your zip code'],
  ['phone', 'Phone number', 'Please enter your phone number'],
];

const formField = (customer: Customer, name: string): string => customer.form_fields.find((f) => f.name === name)?.value ?? '';

function Profile({ customer, onSaved }: { customer: Customer; onSaved(c: Customer): void }): ReactElement {
  const [first, setFirst] = useState(customer.first_name);
  const [last, setLast] = useState(customer.last_name);
  const [phone, setPhone] = useState(customer.phone);
  const [title, setTitle] = useState(formField(customer, 'Title'));
  const [email, setEmailPref] = useState(formField(customer, 'Preference Email') === 'true');
  const [post, setPostPref] = useState(formField(customer, 'Preference Post') === 'true');
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
      const updated = await api<Customer>('PUT', '/customer', {
        first_name: first.trim(),
        last_name: last.trim(),
        phone: phone.trim(),
        form_fields: [
          ...(title === '' ? [] : [{ name: 'Title', value: title }]),
          { name: 'Preference Email', value: String(email) },
          { name: 'Preference Post', value: String(post) },
        ],
      });
      setMessage(null);
      setSaved(true);
      onSaved(updated);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      if (error instanceof ApiError) setErrors(error.fields);
    }
  };

  return (
    <Form onSubmit={() => void save()}>
      <h2 className="account__title">My profile</h2>
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
      <fieldset className="form__group">
        <legend>Marketing preferences</legend>
        <label className="check">
          <input type="checkbox" checked={email} onChange={(event) => setEmailPref(event.target.checked)} /> Email me news and offers
        </label>
        <label className="check">
          <input type="checkbox" checked={post} onChange={(event) => setPostPref(event.target.checked)} /> Send me news and offers by post
        </label>
      </fieldset>
      <button type="submit" className="btn btn--primary">
        Save changes
      </button>
      {saved && <p role="status">Your details have been saved.</p>}
    </Form>
  );
}

function Addresses(): ReactElement {
  const [list, setList] = useState<SavedAddress[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState<AddressForm>(NO_ADDRESS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const reload = (): void => {
    loadSavedAddresses()
      .then(setList)
      .catch((error: unknown) => setMessage(error instanceof Error ? error.message : String(error)));
  };
  useEffect(reload, []);

  const add = async (): Promise<void> => {
    const found = Object.fromEntries(
      ADDRESS_RULES.map(([key, , text]) => [key, requiredError(form[key], text)] as const).filter((e): e is [keyof AddressForm, string] => e[1] !== null),
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await api('POST', '/customer/addresses', form);
      setForm(NO_ADDRESS);
      setAdding(false);
      setMessage(null);
      reload();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      if (error instanceof ApiError) setErrors(error.fields);
    }
  };

  return (
    <section className="account__section" aria-labelledby="addresses-title">
      <h2 className="account__title" id="addresses-title">
        Saved addresses
      </h2>
      <FormError message={message} />
      {list !== null && list.length === 0 && <p>You have no saved addresses.</p>}
      <ul className="addresses">
        {(list ?? []).map((a) => (
          <li key={a.id} className="address">
            <address>
              {a.first_name} {a.last_name}, {a.house_number} {a.street_name}, {a.city}, {a.state_or_province} {a.postal_code}, {a.country_code}
            </address>
            <button type="button" className="link-button" onClick={() => void api('DELETE', `/customer/addresses/${encodeURIComponent(a.id)}`).then(reload)}>
              Delete<span className="visually-hidden"> address {a.street_name}</span>
            </button>
          </li>
        ))}
      </ul>
      {adding ? (
        <Form onSubmit={() => void add()}>
          {ADDRESS_RULES.map(([key, label]) => (
            <Field key={key} id={`address-${key}`} label={label} value={form[key]} onChange={(value) => setForm({ ...form, [key]: value })} error={errors[key] ?? null} required />
          ))}
          <div className="field">
            <label className="field__label" htmlFor="address-country">
              Country *
            </label>
            <select className="field__input" id="address-country" value={form.country_code} onChange={(event) => setForm({ ...form, country_code: event.target.value })}>
              <option value="GB">United Kingdom</option>
              <option value="US">United States</option>
              <option value="AT">Austria</option>
              <option value="DE">Germany</option>
              <option value="NL">Netherlands</option>
            </select>
          </div>
          <button type="submit" className="btn btn--primary">
            Save address
          </button>
        </Form>
      ) : (
        <button type="button" className="btn btn--secondary" onClick={() => setAdding(true)}>
          Add an address
        </button>
      )}
    </section>
  );
}

/** §9: the orders of the last 12 months, newest first. */
function Orders(): ReactElement {
  const [orders, setOrders] = useState<Order[] | null>(null);
  useEffect(() => {
    loadOrderHistory()
      .then(setOrders)
      .catch(() => setOrders([]));
  }, []);
  return (
    <section className="account__section" aria-labelledby="orders-title">
      <h2 className="account__title" id="orders-title">
        Order history
      </h2>
      {orders === null ? (
        <p aria-busy="true">Loading...</p>
      ) : orders.length === 0 ? (
        <p>You have not placed any orders yet.</p>
      ) : (
        orders.map((order) => <OrderSummary key={order.id} order={order} heading="h3" />)
      )}
    </section>
  );
}

export default function MyAccountScreen({ prefix }: { prefix: string }): ReactElement {
  const [customer, setCustomer] = useState<Customer | null>(null);
  // Without the signed-in hint there is no session to ask about (asking would answer 401).
  const [guest] = useState(() => !isSignedInHint());
  useEffect(() => {
    if (guest) return;
    loadCustomer()
      .then((me) => {
        if (me === null) window.location.assign(`${prefix}/login`);
        else setCustomer(me);
      })
      .catch(() => undefined);
  }, [prefix, guest]);
  if (guest) {
    return (
      <p>
        Please <a href={`${prefix}/login`}>sign in</a> to see your account.
      </p>
    );
  }
  if (customer === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="account">
      <p className="account__hello">Hello {customer.first_name}</p>
      <Profile customer={customer} onSaved={setCustomer} />
      <Addresses />
      <Orders />
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => {
          void signOut().then(() => window.location.assign(prefix === '' ? '/' : prefix));
        }}
      >
        Sign out
      </button>
    </div>
  );
}
