// /updatePassword and /ChangePassword: the token from the emailed link is checked first,
// then the new password is set; an invalid link shows the spec's message and a way to ask again.
import { useEffect, useState, type ReactElement } from 'react';
import { Field, Form, FormError } from '../../components/Field';
import { ApiError } from '../../lib/api';
import { passwordError } from '../../lib/account-rules';
import { postPasswordResetConfirm } from './account-api/post-password-reset-confirm';
import { postPasswordResetValidate } from './account-api/post-password-reset-validate';

export const INVALID_LINK = 'The link you have clicked is not valid';

type Phase = 'checking' | 'invalid' | 'ready' | 'done';

export default function UpdatePasswordScreen({ prefix }: { prefix: string }): ReactElement {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [phase, setPhase] = useState<Phase>('checking');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (token === '') {
      setPhase('invalid');
      return;
    }
    postPasswordResetValidate(token)
      .then((valid) => setPhase(valid ? 'ready' : 'invalid'))
      .catch(() => setPhase('invalid'));
  }, [token]);

  if (phase === 'checking') return <p className="form" aria-busy="true">Checking your link…</p>;
  if (phase === 'invalid') {
    return (
      <div className="form">
        <p className="form__error" role="alert">
          {INVALID_LINK}
        </p>
        <a href={`${prefix}/forgot-password`}>Send me a new link</a>
      </div>
    );
  }
  if (phase === 'done') {
    return (
      <div className="form" role="status">
        <p>Your password has been changed. Please sign in with your new password.</p>
        <a className="btn btn--primary" href={`${prefix}/login`}>
          Sign in
        </a>
      </div>
    );
  }
  return (
    <Form onSubmit={() => {
        const found: Record<string, string> = {};
        const problem = passwordError(password);
        if (problem !== null) found.password = problem;
        if (confirm !== password) found.confirm = 'The passwords do not match';
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        setBusy(true);
        postPasswordResetConfirm(token, password)
          .then(() => setPhase('done'))
          .catch((failure: unknown) => {
            if (failure instanceof ApiError && failure.code === 'invalid_token') setPhase('invalid');
            else {
              setMessage(failure instanceof Error ? failure.message : String(failure));
              if (failure instanceof ApiError) setErrors(failure.fields);
            }
          })
          .finally(() => setBusy(false));
      }}>
      <FormError message={message} />
      <Field id="reset-password" label="New password" type="password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password ?? null} required />
      <Field id="reset-confirm" label="Confirm new password" type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} error={errors.confirm ?? null} required />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Loading...' : 'Reset password'}
      </button>
    </Form>
  );
}
