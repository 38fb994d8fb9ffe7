// Checkout billing (/checkout/billing): 'Same as delivery address' (the default) or another address
// in the delivery step's form, sent to the API before the payment step.
import { useState, type ReactElement } from 'react';
import { AddressBlock } from '../../components/AddressBlock';
import { Form, FormError } from '../../components/Field';
import { emptyAddress, type AddressFields } from '../../lib/address';
import { AddressForm } from './address-form';
import { addressErrors, countryOf, defaultCountry, trimmed } from './address-rules';
import { putBillingAddress } from './checkout-api/put-billing-address';
import { CheckoutStep, type StepProps } from './checkout-step';
import { readDraft, saveDraft } from './draft';
import { addressFormMessage, fieldsOf, focusFirstInvalid, navigate, stepPath } from './steps';

export default function BillingScreen({ prefix }: { prefix: string }): ReactElement {
  return (
    <CheckoutStep step="billing" prefix={prefix}>
      {(props) => <Billing {...props} />}
    </CheckoutStep>
  );
}

function Billing({ view, prefix }: StepProps): ReactElement {
  const [draft] = useState(readDraft);
  const delivery = view.consignment?.address ?? null;
  const [same, setSame] = useState(draft.billingSame ?? view.billing?.same_as_delivery ?? true);
  const [address, setAddress] = useState<AddressFields>(
    draft.billing ?? view.billing?.address ?? emptyAddress(delivery?.country_code ?? defaultCountry(view.countries, view.market)),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (): Promise<void> => {
    if (!same) {
      const found = addressErrors(address, view.countries);
      setErrors(found);
      if (Object.keys(found).length > 0) {
        setMessage(null);
        focusFirstInvalid('billing-address');
        return;
      }
    }
    setBusy(true);
    setMessage(null);
    try {
      await putBillingAddress(view.id, same ? { same_as_delivery: true } : { address: trimmed(address) });
      saveDraft({ billingSame: undefined, billing: undefined });
      navigate(stepPath(prefix, 'payment'));
    } catch (failure) {
      const fields = fieldsOf(failure);
      setErrors(fields);
      // 'Billing address is required' names `billing_address`, which no single field shows.
      setMessage(fields.billing_address ?? addressFormMessage(failure));
      setBusy(false);
    }
  };

  return (
    <section className="checkout__section" id="billing-address" aria-labelledby="billing-title">
      <h2 className="checkout__title" id="billing-title">
        Billing address
      </h2>
      <Form onSubmit={() => void submit()}>
        <FormError message={message} />
        <label className="check">
          <input
            type="checkbox"
            checked={same}
            onChange={(event) => {
              setSame(event.target.checked);
              saveDraft({ billingSame: event.target.checked });
            }}
          />{' '}
          Same as delivery address
        </label>
        {same ? (
          delivery !== null && <AddressBlock address={delivery} countryName={countryOf(view.countries, delivery.country_code)?.name} />
        ) : (
          <AddressForm
            id="billing"
            section="billing"
            value={address}
            onChange={(next) => {
              setAddress(next);
              saveDraft({ billing: next });
            }}
            countries={view.countries}
            errors={errors}
          />
        )}
        <button type="submit" className="btn btn--primary" disabled={busy || !view.can_continue}>
          {busy ? 'Loading...' : 'Continue'}
        </button>
      </Form>
    </section>
  );
}
