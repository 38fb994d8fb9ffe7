// The fields a payment method needs: card (number, expiry, security code, name on card) and gift
// card (number, PIN). Their values stay in the payment form's memory only.
import type { ReactElement } from 'react';
import { Field } from '../../components/Field';
import type { CardInput, GiftCardInput } from './card-details';

interface FieldsProps<T> {
  value: T;
  onChange(next: T): void;
  /** Keyed like the tokenisation endpoint's `fields`. */
  errors: Record<string, string>;
}

export function CardFields({ value, onChange, errors }: FieldsProps<CardInput>): ReactElement {
  const set = (key: keyof CardInput) => (next: string) => onChange({ ...value, [key]: next });
  return (
    <div className="form__fields payment-fields">
      <Field id="card-number" label="Card number" value={value.number} onChange={set('number')} error={errors.number ?? null} autoComplete="cc-number" inputMode="numeric" required />
      <Field id="card-expiry" label="Expiry date (MM/YY)" value={value.expiry} onChange={set('expiry')} error={errors.expiry ?? errors.expiry_month ?? errors.expiry_year ?? null} autoComplete="cc-exp" inputMode="numeric" required />
      <Field id="card-cvc" label="Security code" value={value.cvc} onChange={set('cvc')} error={errors.cvc ?? null} autoComplete="cc-csc" inputMode="numeric" required />
      <Field id="card-holder" label="Name on card" value={value.holder_name} onChange={set('holder_name')} error={errors.holder_name ?? null} autoComplete="cc-name" required />
    </div>
  );
}

export function GiftCardFields({ value, onChange, errors }: FieldsProps<GiftCardInput>): ReactElement {
  const set = (key: keyof GiftCardInput) => (next: string) => onChange({ ...value, [key]: next });
  return (
    <div className="form__fields payment-fields">
      <Field id="giftcard-number" label="Gift card number" value={value.number} onChange={set('number')} error={errors.number ?? null} autoComplete="off" inputMode="numeric" required />
      <Field id="giftcard-pin" label="PIN" type="password" value={value.pin} onChange={set('pin')} error={errors.pin ?? null} autoComplete="off" inputMode="numeric" required />
    </div>
  );
}
