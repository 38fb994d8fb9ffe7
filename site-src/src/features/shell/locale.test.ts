// Locale detection: the cookie first, then the geo country and the country map; an unknown country
// is the site the visitor is on; whether the choice is the current site.
import { describe, expect, it } from 'vitest';
import { detectLocale as detect, isCurrentSite, savedChoice } from './locale';

const detectLocale = (cookie: string | null, country: string | null, prefix = ''): ReturnType<typeof detect> => detect(cookie, country, prefix);

const pick = (c: ReturnType<typeof detectLocale>): string => `${c.locale.name} ${c.currency.code} ${c.currency.path}`;

describe('locale detection', () => {
  it('maps countries per §9', () => {
    expect(pick(detectLocale(null, 'GB'))).toBe('UK GBP /');
    expect(pick(detectLocale(null, 'ie'))).toBe('Ireland EUR /eu');
    expect(pick(detectLocale(null, 'US'))).toBe('Rest of the World USD /us');
    expect(pick(detectLocale(null, 'CA'))).toBe('Rest of the World USD /us');
    expect(detectLocale(null, 'AT').locale.name).toBe('Germany');
    expect(detectLocale(null, 'DE').currency.code).toBe('EUR');
  });
  it('maps a country outside the map to Rest of the World in EUR', () => {
    expect(pick(detectLocale(null, 'JP'))).toBe('Rest of the World EUR /eu');
    expect(pick(detectLocale(null, 'FR', '/us'))).toBe('Rest of the World EUR /eu');
  });
  it('takes an unknown country to be the site the visitor is on, so the overlay never opens for it', () => {
    expect(pick(detectLocale(null, null, ''))).toBe('UK GBP /');
    expect(pick(detectLocale(null, '', ''))).toBe('UK GBP /');
    expect(pick(detectLocale(null, null, '/us'))).toBe('Rest of the World USD /us');
    expect(pick(detectLocale(null, null, '/eu'))).toBe('Rest of the World EUR /eu');
    for (const prefix of ['', '/us', '/eu']) expect(isCurrentSite(detectLocale(null, null, prefix), prefix)).toBe(true);
  });
  it('prefers the wsPreferredLocale cookie, ignoring a broken one', () => {
    const cookie = JSON.stringify({ localeCode: 'row', localeName: 'Rest of the World', currencyCode: 'USD' });
    expect(pick(detectLocale(cookie, 'GB'))).toBe('Rest of the World USD /us');
    expect(savedChoice('{not json')).toBeNull();
    expect(savedChoice(JSON.stringify({ localeCode: 'uk', currencyCode: 'EUR' }))).toBeNull();
    expect(pick(detectLocale('{not json', 'GB'))).toBe('UK GBP /');
  });
  it('knows when the choice is the page’s own site', () => {
    expect(isCurrentSite(detectLocale(null, 'GB'), '')).toBe(true);
    expect(isCurrentSite(detectLocale(null, 'FR'), '')).toBe(false);
    expect(isCurrentSite(detectLocale(null, 'FR'), '/eu')).toBe(true);
    expect(isCurrentSite(detectLocale(null, 'IE'), '/eu')).toBe(true);
    expect(isCurrentSite(detectLocale(null, 'DE'), '/eu')).toBe(false);
  });
});
