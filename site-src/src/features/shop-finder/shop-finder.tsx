// The shop finder (hydrated by the ShopFinder island on /shop-finder in every market): the search
// by town or postcode (or the visitor's location), every shop in the list and on the drawn map,
// nearest first with its distance once a place is known. The query lives in the URL (?q=), so a
// search can be shared and Back returns to the previous one. Server markup:
// templates/islands/shop-finder.html, equal to the first render here (no search yet: the list in
// the page's order).
import { useEffect, useMemo, useState, type FormEvent, type ReactElement } from 'react';
import * as z from 'zod/mini';
// The page's own styles: linked in its head by the generator (bundles.rs), not in every page's stylesheet.
import '../../styles/shop-finder.css';
import {
  EMPTY_QUERY,
  NO_LOCATION,
  UNKNOWN_PLACE,
  formatDistance,
  indexPlaces,
  rankShops,
  resolvePlace,
  type LatLon,
  type Resolved,
} from './shop-finder-rules';

const point = z.object({ x: z.number(), y: z.number(), mx: z.number(), my: z.number() });

export const schema = z.object({
  unit: z.enum(['miles', 'km']),
  shops: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      address: z.array(z.string()),
      phone: z.nullable(z.string()),
      phoneHref: z.nullable(z.string()),
      services: z.array(z.string()),
      hours: z.array(z.object({ day: z.string(), hours: z.string() })),
      directions: z.string(),
      lat: z.number(),
      lon: z.number(),
    }),
  ),
  map: z.nullable(
    z.object({
      width: z.number(),
      height: z.number(),
      coast: z.string(),
      scale: z.object({ d: z.string(), x: z.number(), y: z.number(), label: z.string() }),
      projection: z.object({ west: z.number(), north: z.number(), kx: z.number(), ky: z.number() }),
      points: z.array(point),
    }),
  ),
  places: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['town', 'postcode_area', 'postcode_district', 'eircode_routing_key']),
      country: z.string(),
      lat: z.number(),
      lon: z.number(),
      aliases: z.optional(z.array(z.string())),
    }),
  ),
  countries: z.array(z.string()),
});

export type ShopFinderProps = z.infer<typeof schema>;
type MapProps = NonNullable<ShopFinderProps['map']>;

/** A search that found a place: where it is, what to call it, and the shops by distance. */
interface Found {
  place: Resolved;
  /** Shop indexes, nearest first, with their distances in km. */
  ranked: { index: number; km: number }[];
}

const FIELD = 'shop-finder-q';

function queryInUrl(): string {
  return new URLSearchParams(window.location.search).get('q') ?? '';
}

function ShopMap({ map, shops, order, nearest, here }: { map: MapProps; shops: ShopFinderProps['shops']; order: number[]; nearest: number | null; here: Resolved | null }): ReactElement {
  // Each shop's number is its place in the list as shown.
  const numberOf = new Map(order.map((shopIndex, position) => [shopIndex, position + 1]));
  const { west, north, kx, ky } = map.projection;
  const hx = here ? (here.lon - west) * kx : 0;
  const hy = here ? (north - here.lat) * ky : 0;
  const hereShown = here !== null && hx >= 0 && hx <= map.width && hy >= 0 && hy <= map.height;
  const caption = `Map of our ${shops.length === 1 ? 'shop' : `${shops.length} shops`}: each numbered marker links to the shop in the list.${hereShown ? ` The cross marks ${here.label}.` : ''}`;
  return (
    <figure className="shop-map">
      <svg className="shop-map__svg" viewBox={`0 0 ${map.width} ${map.height}`} width={map.width} height={map.height} role="group" aria-labelledby="shop-map-caption">
        <rect className="shop-map__sea" width={map.width} height={map.height} />
        <path className="shop-map__land" d={map.coast} />
        <g className="shop-map__scale">
          <path d={map.scale.d} />
          <text x={map.scale.x} y={map.scale.y}>
            {map.scale.label}
          </text>
        </g>
        {map.points.map((p, i) =>
          p.x !== p.mx || p.y !== p.my ? <line className="shop-map__leader" key={`l${i}`} x1={p.x} y1={p.y} x2={p.mx} y2={p.my} /> : null,
        )}
        {hereShown && <path className="shop-map__here" d={`M${hx - 7} ${hy - 7}l14 14m0 -14l-14 14`} />}
        {map.points.map((p, i) => {
          const shop = shops[i];
          if (shop === undefined) return null;
          const n = numberOf.get(i) ?? i + 1;
          return (
            <a className={i === nearest ? 'shop-map__marker shop-map__marker--nearest' : 'shop-map__marker'} href={`#${shop.id}`} key={shop.id} aria-label={`${n}: ${shop.name}`}>
              <circle cx={p.mx} cy={p.my} r={11} />
              <text x={p.mx} y={p.my}>
                {n}
              </text>
            </a>
          );
        })}
      </svg>
      <figcaption className="shop-map__caption" id="shop-map-caption">
        {caption}
      </figcaption>
    </figure>
  );
}

export default function ShopFinder(props: ShopFinderProps): ReactElement {
  const { shops, map, unit } = props;
  const gazetteer = useMemo(() => indexPlaces(props.places), [props.places]);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<Found | null>(null);
  const [locating, setLocating] = useState(false);

  const rank = (place: Resolved): void => {
    setError(null);
    setFound({ place, ranked: rankShops(shops, place) });
  };

  /** Shows the search `q` (from the form or the URL): an error, or the shops by distance. */
  const search = (q: string): void => {
    if (q.trim() === '') {
      setFound(null);
      setError(EMPTY_QUERY);
      return;
    }
    const place = resolvePlace(q, gazetteer, props.countries);
    if (place === null) {
      setFound(null);
      setError(UNKNOWN_PLACE);
      return;
    }
    rank(place);
  };

  // The URL's query is searched once hydrated, and again on Back and Forward.
  useEffect(() => {
    const fromUrl = (): void => {
      const q = queryInUrl();
      setQuery(q);
      if (q.trim() === '') {
        setFound(null);
        setError(null);
      } else {
        search(q);
      }
    };
    if (queryInUrl() !== '') fromUrl();
    window.addEventListener('popstate', fromUrl);
    return () => window.removeEventListener('popstate', fromUrl);
    // Once: `search` reads only props, which never change after hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const q = query.trim();
    if (q !== '' && q !== queryInUrl()) {
      const url = new URL(window.location.href);
      url.searchParams.set('q', q);
      window.history.pushState(null, '', url);
    }
    search(q);
  };

  const locate = (): void => {
    if (!('geolocation' in navigator)) {
      setError(NO_LOCATION);
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        const here: LatLon = { lat: position.coords.latitude, lon: position.coords.longitude };
        // The location is not put in the URL: a shared link should not carry where someone is.
        if (queryInUrl() !== '') {
          const url = new URL(window.location.href);
          url.searchParams.delete('q');
          window.history.pushState(null, '', url);
        }
        setQuery('');
        rank({ label: 'your location', ...here });
      },
      () => {
        setLocating(false);
        setFound(null);
        setError(NO_LOCATION);
      },
      { timeout: 10_000, maximumAge: 300_000 },
    );
  };

  if (shops.length === 0) {
    return (
      <div className="shop-finder">
        <p className="shop-finder__empty">We have no shops to show at the moment.</p>
      </div>
    );
  }

  const order = found ? found.ranked.map((r) => r.index) : shops.map((_, i) => i);
  const km = new Map(found?.ranked.map((r) => [r.index, r.km]));
  const nearest = found?.ranked[0];
  const nearestShop = nearest ? shops[nearest.index] : undefined;
  const status = locating
    ? 'Finding your location…'
    : found && nearest && nearestShop
      ? `Shops nearest ${found.place.label}, closest first. The nearest is ${nearestShop.name}, ${formatDistance(nearest.km, unit)} away.`
      : '';

  return (
    <div className="shop-finder">
      <form className="shop-finder__search" role="search" aria-label="Find a shop" noValidate onSubmit={onSubmit}>
        <div className="field shop-finder__field">
          <label className="field__label" htmlFor={FIELD}>
            Town or postcode
          </label>
          <div className="shop-finder__row">
            <input
              className="field__input shop-finder__input"
              id={FIELD}
              name="q"
              type="search"
              enterKeyHint="search"
              value={query}
              aria-invalid={error !== null}
              aria-describedby={error !== null ? `${FIELD}-error` : undefined}
              onChange={(event) => setQuery(event.target.value)}
            />
            <button className="btn shop-finder__submit" type="submit">
              Search
            </button>
          </div>
          {error !== null && (
            <p className="field__error" id={`${FIELD}-error`} role="alert">
              {error}
            </p>
          )}
        </div>
        <button className="link-button shop-finder__locate" type="button" onClick={locate}>
          Use my location
        </button>
      </form>
      <p className="shop-finder__status" role="status">
        {status}
      </p>
      <div className="shop-finder__body">
        {map !== null && <ShopMap map={map} shops={shops} order={order} nearest={nearest?.index ?? null} here={found?.place ?? null} />}
        <ol className="shop-list">
          {order.map((index, position) => {
            const shop = shops[index];
            if (shop === undefined) return null;
            const distance = km.get(index);
            return (
              <li className={index === nearest?.index ? 'shop shop--nearest' : 'shop'} id={shop.id} key={shop.id}>
                <h2 className="shop__name">
                  <span className="shop__number" aria-hidden="true">
                    {position + 1}
                  </span>
                  {shop.name}
                </h2>
                {distance !== undefined && <p className="shop__distance">{`${formatDistance(distance, unit)} away`}</p>}
                <address className="shop__address">
                  {shop.address.map((line, i) => (
                    <span className="shop__line" key={i}>
                      {line}
                    </span>
                  ))}
                </address>
                {shop.phone !== null && shop.phoneHref !== null && (
                  <p className="shop__phone">
                    Phone <a href={shop.phoneHref}>{shop.phone}</a>
                  </p>
                )}
                {shop.services.length > 0 && (
                  <ul className="shop__services" aria-label="Services">
                    {shop.services.map((service) => (
                      <li className="shop__service" key={service}>
                        {service}
                      </li>
                    ))}
                  </ul>
                )}
                <table className="shop__hours">
                  <caption>Opening hours</caption>
                  <tbody>
                    {shop.hours.map((row) => (
                      <tr key={row.day}>
                        <th scope="row">{row.day}</th>
                        <td>{row.hours}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p className="shop__directions">
                  <a href={shop.directions}>
                    Directions<span className="visually-hidden">{` to ${shop.name}`}</span>
                  </a>
                </p>
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
