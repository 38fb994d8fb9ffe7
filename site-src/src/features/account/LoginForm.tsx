// Sign-in form (with the spec's error messages): used by /login and the login modal.
import { useState, type ReactElement } from 'react';
import { ApiError } from '../../lib/api';
import { signIn } from './account';
import { Field, Form, FormError } from '../../components/Field';

export const MISSING_CREDENTIALS = 'Please enter your email address and password';

export function LoginForm({ prefix, onSignedIn }: { prefix: string; onSignedIn(): void }): ReactElement {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (): Promise<void> => {
    if (email.trim() === '' || password === '') {
      setMessage(MISSING_CREDENTIALS);
      setFields({});
      return;
    }
    setBusy(true);
    try {
      await signIn(email, password);
      onSignedIn();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      setFields(error instanceof ApiError ? error.fields : {});
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={() => void submit()}>
      <FormError message={message} />
      <Field id="login-email" label="Email address" type="email" autoComplete="email" value={email} onChange={setEmail} error={fields.email ?? null} required />
      <Field id="login-password" label="Password" type="password" autoComplete="current-password" value={password} onChange={setPassword} error={fields.password ?? null} required />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Loading...' : 'Sign in'}
      </button>
      <p className="form__links">
        <a href={`${prefix}/forgot-password`}>Forgot your password?</a>
        {' · '}
        <a href={`${prefix}/create-account`}>Create an account</a>
      </p>
    </Form>
  );
}
