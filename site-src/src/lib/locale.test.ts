// Locale detection (§4, §9): the cookie first, then the geo country and the country map; unknown →
// Rest of the World in EUR; whether the choice is the current site.
import { describe, expect, it } from 'vitest';
import { detectLocale, isCurrentSite, savedChoice } from './locale';

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
  it('defaults an unknown or other country to Rest of the World in EUR', () => {
    expect(pick(detectLocale(null, null))).toBe('Rest of the World EUR /eu');
    expect(pick(detectLocale(null, 'JP'))).toBe('Rest of the World EUR /eu');
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
    expect(isCurrentSite(detectLocale(null, null), '')).toBe(false);
    expect(isCurrentSite(detectLocale(null, null), '/eu')).toBe(true);
  });
});
