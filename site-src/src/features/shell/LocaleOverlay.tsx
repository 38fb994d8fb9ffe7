// The locale overlay (the spec's copy): where we think the visitor is, a country and a currency
// picker, START SHOPPING. Changing the country resets the currency to its first one; submitting
// saves the wsPreferredLocale cookie, sends country_selector and navigates fully to the chosen
// site.
import { useEffect, useState, type ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { track } from '../../lib/analytics';
import { detectLocale, LOCALES, readLocaleCookie, saveChoice, type LocaleChoice } from './locale';
import { store } from '../../lib/store';
import { Modal } from '../../components/Modal';
import { getGeo } from './shell-api/get-geo';

const close = (): void => store.getState().closePanel('locale');

export default function LocaleOverlay(): ReactElement {
  const [detected, setDetected] = useState<LocaleChoice | null>(null);
  const [localeCode, setLocaleCode] = useState('');
  const [currencyCode, setCurrencyCode] = useState('');

  useEffect(() => {
    getGeo()
      .catch(() => ({ country: null }))
      .then((geo) => {
        const found = detectLocale(readLocaleCookie(), geo.country, prefixOf(marketOf()));
        setDetected(found);
        setLocaleCode(found.locale.code);
        setCurrencyCode(found.currency.code);
      });
  }, []);

  const locale = LOCALES.find((l) => l.code === localeCode);
  const currency = locale?.currencies.find((c) => c.code === currencyCode) ?? locale?.currencies[0];
  return (
    <Modal title="WHERE ON EARTH" variant="centered" className="locale-overlay" onClose={close}>
      {detected === null ? (
        <p aria-busy="true">Loading...</p>
      ) : (
        <form
          className="form locale-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (locale === undefined || currency === undefined) return;
            saveChoice({ locale, currency });
            track('country_selector', { country: locale.name, currency: currency.code });
            window.location.assign(currency.path);
          }}
        >
          <p>We think you&apos;re in {detected.locale.name}.</p>
          <p>But if we&apos;re wrong you can tell us below</p>
          <div className="field">
            <label className="field__label" htmlFor="locale-country">
              Country
            </label>
            <select
              className="field__input"
              id="locale-country"
              value={localeCode}
              onChange={(event) => {
                const next = LOCALES.find((l) => l.code === event.target.value);
                setLocaleCode(event.target.value);
                setCurrencyCode(next?.currencies[0]?.code ?? '');
              }}
            >
              {LOCALES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="locale-currency">
              Currency
            </label>
            <select className="field__input" id="locale-currency" value={currency?.code ?? ''} onChange={(event) => setCurrencyCode(event.target.value)}>
              {(locale?.currencies ?? []).map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn--primary">
            START SHOPPING
          </button>
        </form>
      )}
    </Modal>
  );
}
