// Locale detection and choice: the wsPreferredLocale cookie first, then the visitor's country from
// the API's geo lookup; an unknown country is taken to be the site the visitor is on.
import { readCookie } from '../../lib/cookies';

export interface Currency {
  code: 'GBP' | 'EUR' | 'USD';
  /** Where this locale + currency lives: a market path on this site, or the external German site. */
  path: string;
}

export interface LocaleEntry {
  code: 'uk' | 'de' | 'ie' | 'row';
  name: string;
  currencies: Currency[];
}

/** The German storefront is a separate site; its address is configuration, see decisions.md. */
export const GERMAN_SITE = 'https://www.maisonlark.de/';
export const LOCALE_COOKIE = 'wsPreferredLocale';
export const LOCALE_COOKIE_DAYS = 30;

export const LOCALES: LocaleEntry[] = [
  { code: 'uk', name: 'UK', currencies: [{ code: 'GBP', path: '/' }] },
  { code: 'de', name: 'Germany', currencies: [{ code: 'EUR', path: GERMAN_SITE }] },
  { code: 'ie', name: 'Ireland', currencies: [{ code: 'EUR', path: '/eu' }] },
  { code: 'row', name: 'Rest of the World', currencies: [{ code: 'USD', path: '/us' }, { code: 'EUR', path: '/eu' }] },
];

/** Country → locale and currency; every other (or unknown) country is Rest of the World. */
const COUNTRY_MAP: Record<string, { locale: LocaleEntry['code']; currency: Currency['code'] }> = {
  AT: { locale: 'de', currency: 'EUR' },
  DE: { locale: 'de', currency: 'EUR' },
  CA: { locale: 'row', currency: 'USD' },
  US: { locale: 'row', currency: 'USD' },
  GB: { locale: 'uk', currency: 'GBP' },
  IE: { locale: 'ie', currency: 'EUR' },
};

export interface LocaleChoice {
  locale: LocaleEntry;
  currency: Currency;
}

function choice(code: string, currency: string): LocaleChoice | null {
  const locale = LOCALES.find((l) => l.code === code);
  const chosen = locale?.currencies.find((c) => c.code === currency);
  return locale === undefined || chosen === undefined ? null : { locale, currency: chosen };
}

/** The saved preference, when the cookie holds a valid {localeCode, localeName, currencyCode}. */
export function savedChoice(cookie: string | null): LocaleChoice | null {
  if (cookie === null) return null;
  try {
    const saved = JSON.parse(cookie) as { localeCode?: unknown; currencyCode?: unknown };
    return typeof saved.localeCode === 'string' && typeof saved.currencyCode === 'string'
      ? choice(saved.localeCode, saved.currencyCode)
      : null;
  } catch {
    return null;
  }
}

/**
 * The site a visitor with no saved choice and no known country is taken to want: the one they are
 * on. The plain-English (`en`) site at /eu is Rest of the World in EUR; the UK site is the UK in
 * GBP; the US site is Rest of the World in USD. So an unknown country never opens the overlay, and
 * the pickers, opened from the locale button, keep the shopper where they are.
 */
export function siteLocale(prefix: string): LocaleChoice {
  if (prefix === '/us') return choice('row', 'USD') as LocaleChoice;
  if (prefix === '/eu') return choice('row', 'EUR') as LocaleChoice;
  return choice('uk', 'GBP') as LocaleChoice;
}

/**
 * Cookie first, then the geo country through the country map (a known country outside the map is
 * Rest of the World in EUR); an unknown country (`null`) is the current site (`siteLocale`).
 */
export function detectLocale(cookie: string | null, country: string | null, prefix: string): LocaleChoice {
  const saved = savedChoice(cookie);
  if (saved !== null) return saved;
  if (country === null || country.trim() === '') return siteLocale(prefix);
  const mapped = COUNTRY_MAP[country.toUpperCase()];
  return choice(mapped?.locale ?? 'row', mapped?.currency ?? 'EUR') as LocaleChoice;
}

/** Whether the choice is the site the visitor is on (`prefix` '' | '/us' | '/eu'). */
export function isCurrentSite(chosen: LocaleChoice, prefix: string): boolean {
  return chosen.currency.path === (prefix === '' ? '/' : prefix);
}

export function readLocaleCookie(): string | null {
  return readCookie(LOCALE_COOKIE);
}

export function saveChoice(chosen: LocaleChoice): void {
  const value = JSON.stringify({ localeCode: chosen.locale.code, localeName: chosen.locale.name, currencyCode: chosen.currency.code });
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(value)}; Max-Age=${LOCALE_COOKIE_DAYS * 86400}; Path=/; SameSite=Lax`;
}
