// The newsletter modal: an email address sent to the marketing-consent endpoint (marketing_email,
// accept; the API emails a confirmation with a one-click unsubscribe). Closing it records a
// dismissal and subscribing a subscription, so it never offers itself again (features/shell/newsletter.ts).
import { useState, type ReactElement } from 'react';
import { postMarketingConsent } from '../account/account-api/post-marketing-consent';
import { settleNewsletter } from './newsletter';
import { store } from '../../lib/store';
import { emailError } from '../../lib/validation';
import { Field, Form, FormError } from '../../components/Field';
import { Modal } from '../../components/Modal';

const close = (): void => {
  settleNewsletter('dismissed');
  store.getState().closePanel('newsletter');
};

export default function NewsletterModal(): ReactElement {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  return (
    <Modal title="Sign up to our newsletter" variant="centered" onClose={close}>
      {done ? (
        <p role="status">Thank you for signing up. Please check your inbox to confirm your subscription.</p>
      ) : (
        <Form
          onSubmit={() => {
            const problem = emailError(email);
            setError(problem);
            if (problem !== null) return;
            setBusy(true);
            setFailed(null);
            postMarketingConsent(email.trim(), 'marketing_email')
              .then(() => {
                settleNewsletter('subscribed');
                setDone(true);
              })
              .catch(() => setFailed('Something went wrong. Please try again.'))
              .finally(() => setBusy(false));
          }}
        >
          <p>Be the first to hear about new collections, offers and events.</p>
          <Field id="newsletter-email" label="Email address" type="email" autoComplete="email" required value={email} onChange={setEmail} error={error} />
          <FormError message={failed} />
          <button type="submit" className="btn btn--primary" disabled={busy}>
            SIGN UP
          </button>
        </Form>
      )}
    </Modal>
  );
}
