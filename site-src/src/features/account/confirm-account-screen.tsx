// The /confirm-account screen: opens the link a registration emailed (its `token`), which creates
// the account and signs in with this browser's bag, then goes to my-account. A used, expired or
// unknown link says so and offers to register again.
import { useEffect, useState, type ReactElement } from 'react';
import { confirmRegistration } from './account';
import { ApiError } from '../../lib/api';
import { INVALID_LINK } from './update-password-screen';

type Phase = 'confirming' | 'invalid' | 'failed';

export default function ConfirmAccountScreen({ prefix }: { prefix: string }): ReactElement {
  const [phase, setPhase] = useState<Phase>('confirming');
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    if (token === '') {
      setPhase('invalid');
      return;
    }
    confirmRegistration(token)
      .then(() => window.location.assign(`${prefix}/my-account`))
      .catch((failure: unknown) => {
        if (failure instanceof ApiError && failure.code === 'invalid_token') setPhase('invalid');
        else {
          setMessage(failure instanceof Error ? failure.message : String(failure));
          setPhase('failed');
        }
      });
  }, [prefix]);

  if (phase === 'confirming') return <p className="form" aria-busy="true">Confirming your account…</p>;
  return (
    <div className="form">
      <p className="form__error" role="alert">
        {phase === 'invalid' ? INVALID_LINK : message}
      </p>
      <p>A confirmation link works once, for 24 hours. If your account is already confirmed, sign in.</p>
      <a className="btn btn--primary" href={`${prefix}/login`}>
        Sign in
      </a>{' '}
      <a href={`${prefix}/create-account`}>Create an account</a>
    </div>
  );
}
