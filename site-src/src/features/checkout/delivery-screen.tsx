// Checkout delivery (/checkout/delivery): the address (a saved one or the form, which a signed-in
// shopper may save), sent to the API, then the shipping options it answers for that address.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { AddressBlock } from '../../components/AddressBlock';
import { Form, FormError } from '../../components/Field';
import { emptyAddress, type AddressFields, type SavedAddress } from '../../lib/address';
import { getAddresses } from '../account/account-api/get-addresses';
import { formatMoney } from '../../lib/money';
import { AddressForm } from './address-form';
import { addressErrors, countryOf, defaultCountry, trimmed } from './address-rules';
import { putConsignment, type ConsignmentRequest } from './checkout-api/put-consignment';
import { putShippingOption } from './checkout-api/put-shipping-option';
import { CheckoutStep, type StepProps } from './checkout-step';
import { readDraft, saveDraft } from './draft';
import { addressFormMessage, fieldsOf, focusFirstInvalid, focusSoon, messageOf, navigate, stepPath } from './steps';

/** The address choice meaning "the form below" rather than a saved address. */
const NEW = 'new';

export default function DeliveryScreen({ prefix }: { prefix: string }): ReactElement {
  return (
    <CheckoutStep step="delivery" prefix={prefix}>
      {(props) => <Delivery {...props} />}
    </CheckoutStep>
  );
}

function Delivery({ view, setView, prefix }: StepProps): ReactElement {
  const [draft] = useState(readDraft);
  const sent = view.consignment;
  // Guests have no address book; a signed-in shopper's loads before the choice is shown.
  const [saved, setSaved] = useState<SavedAddress[] | null>(view.signed_in ? null : []);
  const [choice, setChoice] = useState(draft.deliveryChoice ?? NEW);
  const [address, setAddress] = useState<AddressFields>(draft.delivery ?? sent?.address ?? emptyAddress(defaultCountry(view.countries, view.market)));
  const [saveAddress, setSaveAddress] = useState(draft.saveAddress ?? false);
  // A sent address is shown as sent (with Change) unless the shopper was still changing it.
  const [editing, setEditing] = useState(sent === null || draft.delivery !== undefined || draft.deliveryChoice !== undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!view.signed_in) return;
    getAddresses()
      .then((list) => {
        setSaved(list);
        // First time here: the first saved address is the likely choice.
        const first = list[0];
        if (first !== undefined && sent === null && draft.deliveryChoice === undefined && draft.delivery === undefined) setChoice(first.id);
      })
      .catch(() => setSaved([]));
    // Once per page (the view's later answers must not reset the choice): deliberately no deps.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = (next: AddressFields): void => {
    setAddress(next);
    saveDraft({ delivery: next });
  };
  const choose = (next: string): void => {
    setChoice(next);
    saveDraft({ deliveryChoice: next });
  };

  const sendAddress = async (): Promise<void> => {
    let request: ConsignmentRequest;
    if (choice !== NEW) {
      request = { address_id: choice };
    } else {
      const found = addressErrors(address, view.countries);
      setErrors(found);
      if (Object.keys(found).length > 0) {
        setMessage(null);
        focusFirstInvalid('delivery-address');
        return;
      }
      request = view.signed_in && saveAddress ? { address: trimmed(address), save_address: true } : { address: trimmed(address) };
    }
    setBusy(true);
    setMessage(null);
    try {
      const next = await putConsignment(view.id, request);
      saveDraft({ delivery: undefined, deliveryChoice: undefined, saveAddress: undefined });
      setView(next);
      setErrors({});
      setEditing(false);
      if (next.consignment !== null) setAddress(next.consignment.address);
      focusSoon('delivery-method-title');
    } catch (failure) {
      setErrors(fieldsOf(failure));
      setMessage(addressFormMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const countryName = (code: string): string => countryOf(view.countries, code)?.name ?? code;

  return (
    <>
      <section className="checkout__section" id="delivery-address" aria-labelledby="delivery-address-title">
        <h2 className="checkout__title" id="delivery-address-title" tabIndex={-1}>
          Delivery address
        </h2>
        {!editing && sent !== null ? (
          <div className="checkout__sent">
            <AddressBlock address={sent.address} countryName={countryName(sent.address.country_code)} />
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setEditing(true);
                focusSoon('delivery-address-title');
              }}
            >
              Change<span className="visually-hidden"> delivery address</span>
            </button>
          </div>
        ) : saved === null ? (
          <p aria-busy="true">Loading...</p>
        ) : (
          <Form onSubmit={() => void sendAddress()}>
            <FormError message={message} />
            {saved.length > 0 && (
              <fieldset className="choices">
                <legend className="field__label">Choose a delivery address</legend>
                {saved.map((a) => (
                  <label key={a.id} className="choice">
                    <input type="radio" name="delivery-choice" value={a.id} checked={choice === a.id} onChange={() => choose(a.id)} />
                    <AddressBlock address={a} countryName={countryName(a.country_code)} inline />
                  </label>
                ))}
                <label className="choice">
                  <input type="radio" name="delivery-choice" value={NEW} checked={choice === NEW} onChange={() => choose(NEW)} />
                  <span>Add a new address</span>
                </label>
              </fieldset>
            )}
            {choice === NEW && (
              <>
                <AddressForm id="delivery" section="shipping" value={address} onChange={change} countries={view.countries} errors={errors} />
                {view.signed_in && (
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={saveAddress}
                      onChange={(event) => {
                        setSaveAddress(event.target.checked);
                        saveDraft({ saveAddress: event.target.checked });
                      }}
                    />{' '}
                    Save this address
                  </label>
                )}
              </>
            )}
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? 'Loading...' : 'Deliver to this address'}
            </button>
          </Form>
        )}
      </section>
      {!editing && sent !== null && <ShippingOptions view={view} setView={setView} prefix={prefix} />}
    </>
  );
}

/** The options the API answered for the sent address; a choice is sent at once (the total changes). */
function ShippingOptions({ view, setView, prefix }: StepProps): ReactElement {
  const consignment = view.consignment;
  const [pending, setPending] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // Arrowing through the radios sends each choice: one request at a time, in order, and only the
  // last one's answer is shown (the radios stay enabled, so keyboard focus never drops).
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef(0);
  const chosen = pending ?? consignment?.shipping_option_id ?? null;

  const choose = (id: string): void => {
    const turn = ++latest.current;
    setPending(id);
    setMessage(null);
    queue.current = queue.current
      .then(() => putShippingOption(view.id, id))
      .then(
        (answer) => {
          if (turn === latest.current) setView(answer);
        },
        (failure: unknown) => {
          if (turn === latest.current) setMessage(messageOf(failure));
        },
      )
      .finally(() => {
        if (turn === latest.current) setPending(null);
      });
  };

  const proceed = (): void => {
    if (consignment?.shipping_option_id == null) {
      setMessage('Please select a delivery method');
      return;
    }
    navigate(stepPath(prefix, 'billing'));
  };

  return (
    <section className="checkout__section">
      <Form onSubmit={proceed}>
        <fieldset className="choices" aria-describedby={message !== null ? 'delivery-method-error' : undefined}>
          <legend>
            <h2 className="checkout__title" id="delivery-method-title" tabIndex={-1}>
              Delivery method
            </h2>
          </legend>
          {(consignment?.shipping_options ?? []).map((option) => (
            <label key={option.id} className="choice">
              <input type="radio" name="shipping-option" value={option.id} checked={chosen === option.id} onChange={() => choose(option.id)} />
              <span className="choice__text">
                <span className="choice__label">{option.label}</span>
                <span className="choice__detail">{option.detail}</span>
              </span>
              <span className="choice__price">{formatMoney(option.amount, view.currency)}</span>
            </label>
          ))}
        </fieldset>
        {message !== null && (
          <p className="form__error" id="delivery-method-error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" className="btn btn--primary" disabled={pending !== null || !view.can_continue}>
          Continue
        </button>
      </Form>
    </section>
  );
}
