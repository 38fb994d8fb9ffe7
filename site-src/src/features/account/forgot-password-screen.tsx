// The /forgot-password screen: asks the API for a reset link. The answer is the same whether or not
// the account exists (no enumeration), so the confirmation is too.
import { useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../../components/Field';
import { emailError } from '../../lib/validation';
import { postPasswordReset } from './account-api/post-password-reset';

export default function ForgotPasswordScreen({ prefix }: { prefix: string }): ReactElement {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  if (sent) {
    return (
      <div className="form" role="status">
        <p>If there is an account for {email.trim()}, we have emailed it a link to reset the password. It can take up to 10 minutes to arrive.</p>
        <a href={`${prefix}/login`}>Back to sign in</a>
      </div>
    );
  }
  return (
    <Form onSubmit={() => {
        const problem = emailError(email);
        setError(problem);
        if (problem !== null) return;
        setBusy(true);
        postPasswordReset(email.trim())
          .then(() => setSent(true))
          .catch((failure: unknown) => setMessage(failure instanceof Error ? failure.message : String(failure)))
          .finally(() => setBusy(false));
      }}>
      <FormError message={message} />
      <Field id="forgot-email" label="Email address" type="email" autoComplete="email" value={email} onChange={setEmail} error={error} required />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Loading...' : 'Send reset link'}
      </button>
    </Form>
  );
}
