// The shop finder's rules, free of React and the DOM: what a query means (a town, a UK postcode or
// part of one, an Eircode), where it is by the gazetteer the page ships, and how far each shop is.

export type PlaceKind = 'town' | 'postcode_area' | 'postcode_district' | 'eircode_routing_key';
export type DistanceUnit = 'miles' | 'km';

export interface LatLon {
  lat: number;
  lon: number;
}

export interface Place extends LatLon {
  name: string;
  kind: PlaceKind;
  /** ISO 3166-1 alpha-2. */
  country: string;
  aliases?: readonly string[] | undefined;
}

/** A query resolved: what to call it and where it is. */
export interface Resolved extends LatLon {
  label: string;
}

export const EMPTY_QUERY = 'Please enter a town or postcode.';
export const UNKNOWN_PLACE = "We couldn't find that place. Try a town or a postcode.";
export const NO_LOCATION = "We couldn't get your location. Search by town or postcode instead.";

/** Mean Earth radius (IUGG), km. */
const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_MILE = 1.609344;

/**
 * How names compare (generator's `place_key` does the same): lower case, accents dropped,
 * apostrophes dropped (King's Lynn → kings lynn), `&` as "and", anything else a single space.
 */
export function normaliseName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** What a UK postcode query gives: its outward code (district) when it has one, and its area. */
export interface UkPostcode {
  /** `LS1`, `SW1A`; null for an area alone (`LS`). */
  district: string | null;
  area: string;
  /** The query as printed: `LS1 4AP`, `LS1`, `LS`. */
  label: string;
}

/** A full UK postcode (`SW1A 1AA`, `sw1a1aa`), an outward code (`LS1`) or an area (`LS`); else null. */
export function parseUkPostcode(query: string): UkPostcode | null {
  const compact = query.replace(/\s+/g, '').toUpperCase();
  const full = /^([A-Z]{1,2}[0-9][A-Z0-9]?)([0-9][A-Z]{2})$/.exec(compact);
  const outward = full ? full[1] : /^[A-Z]{1,2}[0-9][A-Z0-9]?$/.test(compact) ? compact : null;
  if (outward != null) {
    const area = /^[A-Z]+/.exec(outward)?.[0] ?? '';
    return { district: outward, area, label: full ? `${full[1]} ${full[2]}` : outward };
  }
  if (/^[A-Z]{1,2}$/.test(compact)) return { district: null, area: compact, label: compact };
  return null;
}

/** An Eircode (`D02 X285`) or its routing key (`D02`, `D6W`): the routing key and the label; else null. */
export function parseEircode(query: string): { key: string; label: string } | null {
  const compact = query.replace(/\s+/g, '').toUpperCase();
  const match = /^([A-Z][0-9]{2}|D6W)([0-9A-Z]{4})?$/.exec(compact);
  if (!match || match[1] === undefined) return null;
  return { key: match[1], label: match[2] ? `${match[1]} ${match[2]}` : match[1] };
}

/** The gazetteer indexed for lookups: built once per page (a few hundred places). */
export interface Gazetteer {
  towns: Map<string, Place[]>;
  codes: Map<string, Place>;
}

export function indexPlaces(places: readonly Place[]): Gazetteer {
  const towns = new Map<string, Place[]>();
  const codes = new Map<string, Place>();
  for (const place of places) {
    if (place.kind === 'town') {
      for (const name of [place.name, ...(place.aliases ?? [])]) {
        const key = normaliseName(name);
        const list = towns.get(key) ?? [];
        list.push(place);
        towns.set(key, list);
      }
    } else {
      codes.set(`${place.kind}:${place.name}`, place);
    }
  }
  return { towns, codes };
}

/** Of places with one name, the first in a preferred country (the market's own first), else the first. */
function preferred(candidates: readonly Place[], countries: readonly string[]): Place | undefined {
  for (const country of countries) {
    const found = candidates.find((p) => p.country === country);
    if (found) return found;
  }
  return candidates[0];
}

/**
 * Where `query` is: a town by its name or an alias (`Leeds`, `leeds, uk`), else a postcode by the
 * most precise entry the gazetteer has — the district (`LS1 4AP` → LS1), the district without its
 * sub-letter (`EC1A 1BB` → EC1), the area (`LS99` → LS) — or an Eircode's routing key. Null when
 * nothing matches.
 */
export function resolvePlace(query: string, gazetteer: Gazetteer, countries: readonly string[] = []): Resolved | null {
  const trimmed = query.trim();
  if (trimmed === '') return null;
  const town = (text: string): Resolved | null => {
    const place = preferred(gazetteer.towns.get(normaliseName(text)) ?? [], countries);
    return place ? { label: place.name, lat: place.lat, lon: place.lon } : null;
  };
  const named = town(trimmed) ?? (trimmed.includes(',') ? town(trimmed.split(',')[0] ?? '') : null);
  if (named) return named;
  const code = (kind: PlaceKind, name: string) => gazetteer.codes.get(`${kind}:${name}`);
  const at = (place: Place | undefined, label: string): Resolved | null => (place ? { label, lat: place.lat, lon: place.lon } : null);
  const uk = parseUkPostcode(trimmed);
  const eircode = parseEircode(trimmed);
  // Exact entries first: `N91` is a UK-shaped outward code and an Irish routing key.
  const exact = at(uk?.district ? code('postcode_district', uk.district) : undefined, uk?.label ?? '') ?? at(eircode ? code('eircode_routing_key', eircode.key) : undefined, eircode?.label ?? '');
  if (exact) return exact;
  if (uk) {
    const broader = uk.district && /[A-Z]$/.test(uk.district) ? code('postcode_district', uk.district.slice(0, -1)) : undefined;
    return at(broader ?? code('postcode_area', uk.area), uk.label);
  }
  return null;
}

/** Great-circle distance, km (haversine). */
export function haversineKm(a: LatLon, b: LatLon): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** `0.4 miles`, `12 miles`, `3.1 km`: one decimal under ten, whole numbers above. */
export function formatDistance(km: number, unit: DistanceUnit): string {
  const value = unit === 'miles' ? km / KM_PER_MILE : km;
  const text = value < 9.95 ? value.toFixed(1) : Math.round(value).toLocaleString('en-GB');
  return `${text} ${unit}`;
}

/** Indexes of `shops`, nearest to `from` first (ties in the list's order), with each distance in km. */
export function rankShops(shops: readonly LatLon[], from: LatLon): { index: number; km: number }[] {
  return shops
    .map((shop, index) => ({ index, km: haversineKm(from, shop) }))
    .sort((a, b) => a.km - b.km || a.index - b.index);
}
