// The /cookies screen: the shopper's cookie choices (strictly necessary always on, analytics as they
// choose, stored for every market) and the cookie policy, whose text is the market's content page
// `cookie-policy` (content-managed), shown below the choices so its arrival moves nothing.
import { useEffect, useState, type ReactElement } from 'react';
import { Form } from '../../components/Field';
import { readConsent, saveConsent } from './consent';
import { loadPageBlocks } from '../../lib/content-page';

export default function CookiesScreen({ prefix }: { prefix: string }): ReactElement {
  const [analytics, setAnalytics] = useState(() => readConsent()?.analytics ?? false);
  const [saved, setSaved] = useState(false);
  const [policy, setPolicy] = useState<string | null>(null);

  useEffect(() => {
    loadPageBlocks(`${prefix}/cookie-policy`)
      .then(setPolicy)
      .catch(() => setPolicy(null));
  }, [prefix]);

  return (
    <>
      <Form className="form cookie-choices" onSubmit={() => {
          saveConsent({ analytics });
          setSaved(true);
        }}>
        <fieldset className="form__group">
          <legend>Your cookie choices</legend>
          <label className="check">
            <input type="checkbox" checked disabled /> Strictly necessary cookies (always on)
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={analytics}
              onChange={(event) => {
                setAnalytics(event.target.checked);
                setSaved(false);
              }}
            />{' '}
            Analytics cookies
          </label>
        </fieldset>
        <button type="submit" className="btn btn--primary">
          Save my choices
        </button>
        <p role="status">{saved ? 'Your cookie choices are saved.' : ''}</p>
      </Form>
      {policy !== null && <div className="cookie-policy" dangerouslySetInnerHTML={{ __html: policy }} />}
    </>
  );
}
