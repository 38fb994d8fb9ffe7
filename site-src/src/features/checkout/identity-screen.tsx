// Checkout identity (/checkout-identity): sign in in place (the login form and its error messages),
// or continue as a guest with an email (checked by the email rule). A signed-in shopper never sees
// it (CheckoutStep).
import { useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../../components/Field';
import { LoginForm } from '../account/LoginForm';
import { emailError } from '../../lib/validation';
import { putEmail } from './checkout-api/put-email';
import { startCheckout } from './checkout-api/start-checkout';
import { CheckoutStep, type StepProps } from './checkout-step';
import { readDraft, saveDraft } from './draft';
import { fieldsOf, focusSoon, messageOf, navigate, pathWithoutCart, stepPath } from './steps';

export default function IdentityScreen({ prefix }: { prefix: string }): ReactElement {
  return (
    <CheckoutStep step="identity" prefix={prefix}>
      {(props) => <Identity {...props} />}
    </CheckoutStep>
  );
}

function Identity({ view, prefix }: StepProps): ReactElement {
  const [email, setEmail] = useState(() => readDraft().email ?? view.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signInMessage, setSignInMessage] = useState<string | null>(null);

  // Signing in may merge this bag into the customer's saved cart (another checkout): start again.
  const afterSignIn = async (): Promise<void> => {
    try {
      await startCheckout();
      navigate(stepPath(prefix, 'delivery'));
    } catch (failure) {
      const away = pathWithoutCart(prefix, failure);
      if (away !== null) navigate(away);
      else setSignInMessage(messageOf(failure));
    }
  };

  const asGuest = async (): Promise<void> => {
    const problem = emailError(email);
    setError(problem);
    setMessage(null);
    if (problem !== null) {
      focusSoon('checkout-email');
      return;
    }
    setBusy(true);
    try {
      await putEmail(view.id, email.trim());
      saveDraft({ email: undefined });
      navigate(stepPath(prefix, 'delivery'));
    } catch (failure) {
      const fieldError = fieldsOf(failure).email ?? null;
      setError(fieldError);
      setMessage(fieldError === null ? messageOf(failure) : null);
      setBusy(false);
    }
  };

  return (
    <div className="checkout__identity">
      <section className="checkout__section" aria-labelledby="identity-sign-in">
        <h2 className="checkout__title" id="identity-sign-in">
          Sign in
        </h2>
        <FormError message={signInMessage} />
        <LoginForm prefix={prefix} onSignedIn={() => void afterSignIn()} />
      </section>
      <section className="checkout__section" aria-labelledby="identity-guest">
        <h2 className="checkout__title" id="identity-guest">
          Continue as guest
        </h2>
        <Form onSubmit={() => void asGuest()}>
          <FormError message={message} />
          <Field
            id="checkout-email"
            label="Email address"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(next) => {
              setEmail(next);
              saveDraft({ email: next });
            }}
            error={error}
            required
          />
          <button type="submit" className="btn btn--primary" disabled={busy || !view.can_continue}>
            {busy ? 'Loading...' : 'Continue as guest'}
          </button>
        </Form>
      </section>
    </div>
  );
}
