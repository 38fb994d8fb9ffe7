// The shop finder's rules: names and postcodes as typed, places resolved by the gazetteer, great-circle distances and their wording.
import { describe, expect, it } from 'vitest';
import {
  formatDistance,
  haversineKm,
  indexPlaces,
  normaliseName,
  parseEircode,
  parseUkPostcode,
  rankShops,
  resolvePlace,
  type Place,
} from './shop-finder-rules';

const places: Place[] = [
  { name: 'Leeds', kind: 'town', country: 'GB', lat: 53.7965, lon: -1.5478 },
  { name: 'Newcastle upon Tyne', kind: 'town', country: 'GB', lat: 54.9783, lon: -1.6178, aliases: ['Newcastle'] },
  { name: 'Boston', kind: 'town', country: 'GB', lat: 52.9789, lon: -0.0266 },
  { name: 'Boston', kind: 'town', country: 'US', lat: 42.3601, lon: -71.0589 },
  { name: 'Stoke-on-Trent', kind: 'town', country: 'GB', lat: 53.0027, lon: -2.1794 },
  { name: 'Düsseldorf', kind: 'town', country: 'DE', lat: 51.2277, lon: 6.7735 },
  { name: 'LS', kind: 'postcode_area', country: 'GB', lat: 53.8, lon: -1.55 },
  { name: 'LS1', kind: 'postcode_district', country: 'GB', lat: 53.7967, lon: -1.5475 },
  { name: 'SW', kind: 'postcode_area', country: 'GB', lat: 51.47, lon: -0.17 },
  { name: 'SW1A', kind: 'postcode_district', country: 'GB', lat: 51.5014, lon: -0.1419 },
  { name: 'EC', kind: 'postcode_area', country: 'GB', lat: 51.518, lon: -0.095 },
  { name: 'EC1', kind: 'postcode_district', country: 'GB', lat: 51.524, lon: -0.1 },
  { name: 'N', kind: 'postcode_area', country: 'GB', lat: 51.58, lon: -0.12 },
  { name: 'D02', kind: 'eircode_routing_key', country: 'IE', lat: 53.338, lon: -6.256 },
  { name: 'N91', kind: 'eircode_routing_key', country: 'IE', lat: 53.525, lon: -7.338 },
];
const gazetteer = indexPlaces(places);

describe('names and codes as typed', () => {
  it('compares names without case, accents, apostrophes or punctuation', () => {
    expect(normaliseName('  Stoke-on-Trent ')).toBe('stoke on trent');
    expect(normaliseName("King's Lynn")).toBe('kings lynn');
    expect(normaliseName('DÜSSELDORF')).toBe('dusseldorf');
    expect(normaliseName('Brighton & Hove')).toBe('brighton and hove');
  });

  it('reads a UK postcode whole, as an outward code or as an area', () => {
    expect(parseUkPostcode('ls1 4ap')).toEqual({ district: 'LS1', area: 'LS', label: 'LS1 4AP' });
    expect(parseUkPostcode('SW1A1AA')).toEqual({ district: 'SW1A', area: 'SW', label: 'SW1A 1AA' });
    expect(parseUkPostcode('ls1')).toEqual({ district: 'LS1', area: 'LS', label: 'LS1' });
    expect(parseUkPostcode('ls')).toEqual({ district: null, area: 'LS', label: 'LS' });
    expect(parseUkPostcode('Leeds')).toBeNull();
    expect(parseUkPostcode('LS1 4A')).toBeNull();
    expect(parseUkPostcode('12345')).toBeNull();
  });

  it('reads an Eircode or its routing key', () => {
    expect(parseEircode('d02 x285')).toEqual({ key: 'D02', label: 'D02 X285' });
    expect(parseEircode('D6W')).toEqual({ key: 'D6W', label: 'D6W' });
    expect(parseEircode('Dublin')).toBeNull();
  });
});

describe('resolvePlace', () => {
  const at = (query: string, countries: string[] = ['GB']) => resolvePlace(query, gazetteer, countries);

  it('finds a town by its name or an alias, however it is typed', () => {
    expect(at('Leeds')).toEqual({ label: 'Leeds', lat: 53.7965, lon: -1.5478 });
    expect(at('  leeds ')?.label).toBe('Leeds');
    expect(at('Leeds, UK')?.label).toBe('Leeds');
    expect(at('newcastle')?.label).toBe('Newcastle upon Tyne');
    expect(at('stoke on trent')?.label).toBe('Stoke-on-Trent');
    expect(at('Dusseldorf')?.label).toBe('Düsseldorf');
  });

  it("prefers the market's own country when a name is in several", () => {
    expect(at('Boston', ['GB'])?.lat).toBeCloseTo(52.9789);
    expect(at('Boston', ['US', 'GB'])?.lat).toBeCloseTo(42.3601);
    expect(at('Boston', [])?.lat).toBeCloseTo(52.9789);
  });

  it('finds a postcode by its district, then the district without its letter, then its area', () => {
    expect(at('LS1 4AP')).toEqual({ label: 'LS1 4AP', lat: 53.7967, lon: -1.5475 });
    expect(at('ls1')?.lat).toBeCloseTo(53.7967);
    expect(at('SW1A 1AA')).toEqual({ label: 'SW1A 1AA', lat: 51.5014, lon: -0.1419 });
    expect(at('EC1A 1BB')?.lon).toBeCloseTo(-0.1);
    expect(at('LS99 1AA')).toEqual({ label: 'LS99 1AA', lat: 53.8, lon: -1.55 });
    expect(at('LS')?.label).toBe('LS');
  });

  it('finds an Eircode by its routing key, before a UK area of the same letters', () => {
    expect(at('D02 X285')).toEqual({ label: 'D02 X285', lat: 53.338, lon: -6.256 });
    expect(at('N91')?.lat).toBeCloseTo(53.525);
    expect(at('N1 9GU')?.lat).toBeCloseTo(51.58);
  });

  it('finds nothing for an unknown place, an unknown area or an empty query', () => {
    expect(at('Atlantis')).toBeNull();
    expect(at('ZZ1 1ZZ')).toBeNull();
    expect(at('   ')).toBeNull();
  });
});

describe('distances', () => {
  it('measures the great-circle distance', () => {
    const london = { lat: 51.5074, lon: -0.1278 };
    const leeds = { lat: 53.7965, lon: -1.5478 };
    // About 272 km (169 miles) as the crow flies.
    expect(haversineKm(london, leeds)).toBeGreaterThan(270);
    expect(haversineKm(london, leeds)).toBeLessThan(274);
    expect(haversineKm(leeds, leeds)).toBe(0);
    // Across the antimeridian the short way.
    expect(haversineKm({ lat: 0, lon: 179.5 }, { lat: 0, lon: -179.5 })).toBeCloseTo(111.2, 0);
  });

  it('says miles in the UK and US, km in Europe, one decimal under ten', () => {
    expect(formatDistance(0.5, 'miles')).toBe('0.3 miles');
    expect(formatDistance(16.09344, 'miles')).toBe('10 miles');
    expect(formatDistance(15.9, 'miles')).toBe('9.9 miles');
    expect(formatDistance(272.4, 'miles')).toBe('169 miles');
    expect(formatDistance(3.14, 'km')).toBe('3.1 km');
    expect(formatDistance(9.96, 'km')).toBe('10 km');
    expect(formatDistance(5559.7, 'km')).toBe('5,560 km');
  });

  it('ranks shops nearest first, ties in the list order', () => {
    const shops = [
      { lat: 51.5, lon: -0.12 },
      { lat: 53.8, lon: -1.54 },
      { lat: 53.8, lon: -1.54 },
      { lat: 55.95, lon: -3.19 },
    ];
    // From Leeds, Edinburgh (about 260 km) is nearer than London (about 270 km).
    expect(rankShops(shops, { lat: 53.79, lon: -1.55 }).map((r) => r.index)).toEqual([1, 2, 3, 0]);
    expect(rankShops([], { lat: 0, lon: 0 })).toEqual([]);
  });
});
