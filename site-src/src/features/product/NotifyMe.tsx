// Notify-me: for a sold-out choice, an email to tell when it is back; needs the size (and
// the fit, when the product has lengths) and a valid email.
import { useState, type ReactElement } from 'react';
import { emailError, isEmail } from '../../lib/validation';
import { postNotifyMe } from './product-api/post-notify-me';
import { showError } from './show-error';

export interface NotifyMeProps {
  productId: number;
  variantId: number;
  size: string | null;
  /** Undefined when the product has no lengths. */
  fit?: string | null;
}

export default function NotifyMe({ productId, variantId, size, fit }: NotifyMeProps): ReactElement {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const error = email === '' ? null : emailError(email);
  const ready = isEmail(email) && size !== null && fit !== null;

  const send = async (): Promise<void> => {
    try {
      await postNotifyMe({
        email: email.trim(),
        product_id: productId,
        variant_id: variantId,
        size: size ?? '',
        ...(fit === undefined ? {} : { fit: fit ?? '' }),
      });
      setSent(true);
    } catch (failure) {
      await showError(failure);
    }
  };

  if (sent) return <p className="notify-me__done">We will email you when it is back in stock.</p>;
  return (
    <form
      className="notify-me"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void send();
      }}
    >
      <label className="field__label" htmlFor={`notify-${productId}`}>
        Email me when it is back in stock
      </label>
      <input
        className="field__input"
        id={`notify-${productId}`}
        type="email"
        autoComplete="email"
        value={email}
        aria-invalid={error !== null}
        onChange={(event) => setEmail(event.target.value)}
      />
      {error !== null && <p className="field__error">{error}</p>}
      <button type="submit" className="btn btn--secondary" disabled={!ready}>
        Notify me
      </button>
    </form>
  );
}
