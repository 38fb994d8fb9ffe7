// Saved addresses (/MyAccount/SavedAddresses): the address book, default first (the one the
// checkout offers first): add, edit, delete, and set another as the default. The form is the
// checkout's own (fields and messages per country).
import { useEffect, useState, type ReactElement } from 'react';
import { Form, FormError } from '../../components/Field';
import { AddressBlock } from '../../components/AddressBlock';
import { ApiError, marketOf, messageOf } from '../../lib/api';
import { ADDRESS_COUNTRIES, countryName, emptyAddress, type AddressFields, type SavedAddress } from '../../lib/address';
import { AddressForm } from '../checkout/address-form';
import { addressErrors, defaultCountry } from '../checkout/address-rules';
import { deleteAddress } from './account-api/delete-address';
import { getAddresses } from './account-api/get-addresses';
import { postAddress } from './account-api/post-address';
import { postDefaultAddress } from './account-api/post-default-address';
import { putAddress } from './account-api/put-address';

/** A new address starts in the market's own country (the UK, the US, Ireland). */
const newAddress = (): AddressFields => emptyAddress(defaultCountry(ADDRESS_COUNTRIES, marketOf()));
const fieldsOf = ({ id: _, ...fields }: SavedAddress): AddressFields => fields;

/** The address book names its fields bare; the form keys them `address.<name>`. */
function formErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k.startsWith('address.') ? k : `address.${k}`, v]));
}

export function AddressesPage(): ReactElement {
  const [list, setList] = useState<SavedAddress[] | null>(null);
  // The address being edited: null for none, '' for a new one.
  const [editing, setEditing] = useState<string | null>(null);
  const [form, setForm] = useState<AddressFields>(newAddress);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = (): Promise<void> =>
    getAddresses()
      .then(setList)
      .catch((error: unknown) => setMessage(messageOf(error)));
  useEffect(() => void reload(), []);

  const act = async (run: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await run();
      setMessage(null);
      setStatus(done);
      await reload();
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  const edit = (address: SavedAddress | null): void => {
    setEditing(address?.id ?? '');
    setForm(address === null ? newAddress() : fieldsOf(address));
    setErrors({});
    setStatus(null);
  };

  const save = async (): Promise<void> => {
    // The same rules and messages as the checkout's address steps (and the API's).
    const found = addressErrors(form, ADDRESS_COUNTRIES);
    setErrors(found);
    if (Object.keys(found).length > 0 || editing === null) return;
    try {
      if (editing === '') await postAddress(form);
      else await putAddress(editing, form);
      setEditing(null);
      setMessage(null);
      setStatus(editing === '' ? 'The address has been added.' : 'The address has been updated.');
      await reload();
    } catch (error) {
      setMessage(messageOf(error));
      setErrors(formErrors(error));
    }
  };

  return (
    <section className="account__section" aria-labelledby="addresses-title">
      <h2 className="account__title" id="addresses-title">
        Your addresses
      </h2>
      <FormError message={message} />
      {status !== null && <p role="status">{status}</p>}
      {list === null ? (
        <p aria-busy="true">Loading...</p>
      ) : list.length === 0 ? (
        <p>You have no saved addresses.</p>
      ) : (
        <ul className="addresses">
          {list.map((a, i) => (
            <li key={a.id} className="address" data-address-id={a.id}>
              {i === 0 && <p className="address__default">Default address</p>}
              <AddressBlock address={a} countryName={countryName(a.country_code)} />
              <div className="address__actions">
                <button type="button" className="link-button" onClick={() => edit(a)}>
                  Edit<span className="visually-hidden"> address {a.street_name}</span>
                </button>
                <button type="button" className="link-button" onClick={() => void act(() => deleteAddress(a.id), 'The address has been deleted.')}>
                  Delete<span className="visually-hidden"> address {a.street_name}</span>
                </button>
                {i > 0 && (
                  <button type="button" className="link-button" onClick={() => void act(() => postDefaultAddress(a.id), 'Your default address has been changed.')}>
                    Set as default<span className="visually-hidden"> address {a.street_name}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing !== null ? (
        <Form onSubmit={() => void save()}>
          <h3 className="account__subtitle">{editing === '' ? 'Add an address' : 'Edit address'}</h3>
          <AddressForm id="address" section="shipping" value={form} onChange={setForm} countries={ADDRESS_COUNTRIES} errors={errors} />
          <div className="form__actions">
            <button type="submit" className="btn btn--primary">
              Save address
            </button>
            <button type="button" className="btn btn--secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </Form>
      ) : (
        <button type="button" className="btn btn--secondary" onClick={() => edit(null)}>
          Add an address
        </button>
      )}
    </section>
  );
}
