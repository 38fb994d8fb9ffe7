// The listing (hydrated by the Listing island): the toolbar, filter sidebar, product grid and
// pagination of category, collection and search results pages. The first render equals the static first page
// (templates/islands/listing.html), so hydration shows no refetch flash; after that, filters, sort
// and pages come from GET /api/listing and live in the URL (back and forward restore them).
import { Fragment, useCallback, useEffect, useRef, useState, type MouseEvent, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { trapFocus } from '../../lib/focus-trap';
import { Icon } from '../../lib/icons';
import { cardSchema, ProductCard } from '../../lib/product-card';
import { facetsSchema } from './facets';
import type { ListingPage } from './listing-api/get-listing';
import type { ScrollPosition } from './scroll-memory';
import {
  clearFilters,
  EMPTY_STATE,
  listingHref,
  listingQueryString,
  pageNumbers,
  parseListingUrl,
  SORT_LABELS,
  toggleFilter,
  type ListingUrlState,
  type Sort,
} from './url-state';

export const schema = z.object({
  kind: z.enum(['category', 'collection', 'search']),
  id: z.nullable(z.number()),
  market: z.string(),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  sort: z.string(),
  facets: facetsSchema,
  products: z.array(cardSchema),
});

export type ListingProps = z.infer<typeof schema>;

export const FILTER_PATH = 'M4 6h16M7 12h10M10 18h4';
export const CLOSE_PATH = 'M6 6l12 12M18 6L6 18';
export const NO_FILTERS = 'No filters are available now.';
export const LOADING_FILTERS = 'Loading filters...';
export const NO_SEARCH_RESULTS = 'No products found matching your search criteria.';

type View = 'grid' | 'list';

function sortsFor(kind: ListingProps['kind']): Sort[] {
  return [kind === 'search' ? 'relevance' : 'featured', 'newest', 'price-asc', 'price-desc'];
}

/** The static first page as a listing answer: what the page was rendered from. */
function staticPage(props: ListingProps): ListingPage {
  return { total: props.total, page: props.page, pages: props.pages, sort: props.sort, products: props.products, facets: props.facets };
}

function urlFor(state: ListingUrlState): string {
  const qs = listingQueryString(state);
  return `${window.location.pathname}${qs === '' ? '' : `?${qs}`}`;
}

/** A facet option; only colours carry a swatch. */
type Facet = { label: string; count: number; swatch?: string | null };

const FACET_GROUPS = {
  colours: { className: 'facet--colour', legend: 'Colour', listClass: 'facet__list', idPrefix: 'facet-colour', name: 'filters[Color]' },
  sizes: { className: 'facet--size', legend: 'Size', listClass: 'facet__list facet__list--sizes', idPrefix: 'facet-size', name: 'filters[Size]' },
} as const;

/** One facet's checkboxes with their counts; an option with no results is disabled unless chosen. */
function FacetGroup(props: {
  facet: keyof typeof FACET_GROUPS;
  facets: Facet[];
  chosen: string[];
  onToggle: (value: string) => void;
}): ReactElement | null {
  if (props.facets.length === 0) return null;
  const group = FACET_GROUPS[props.facet];
  return (
    <fieldset className={`facet ${group.className}`}>
      <legend className="facet__legend">{group.legend}</legend>
      <ul className={group.listClass}>
        {props.facets.map((f, i) => {
          const checked = props.chosen.includes(f.label);
          return (
            <li className="facet__option" key={f.label}>
              <input
                className="facet__input"
                type="checkbox"
                id={`${group.idPrefix}-${i + 1}`}
                name={group.name}
                value={f.label}
                checked={checked}
                disabled={f.count === 0 && !checked}
                onChange={() => props.onToggle(f.label)}
              />
              <label className="facet__label" htmlFor={`${group.idPrefix}-${i + 1}`}>
                {f.swatch === undefined ? null : (
                  <span className="facet__swatch" style={f.swatch === null ? undefined : { backgroundColor: f.swatch }} />
                )}
                {`${f.label} `}
                <span className="facet__count">{`(${f.count})`}</span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

export default function Listing(props: ListingProps): ReactElement {
  // A search page is static without results: it has nothing to show until the query is known.
  const [data, setData] = useState<ListingPage | null>(props.kind === 'search' ? null : staticPage(props));
  const [state, setState] = useState<ListingUrlState>(EMPTY_STATE);
  const [loading, setLoading] = useState(props.kind === 'search');
  const [failed, setFailed] = useState(false);
  const [view, setView] = useState<View>('grid');
  const [open, setOpen] = useState(false);
  const cache = useRef(new Map<string, ListingPage>());
  const inFlight = useRef<AbortController | null>(null);
  const panel = useRef<HTMLElement>(null);
  // Where Back should put the page once the URL's results are shown (null: nothing to restore);
  // `memory` turns true once the scroll memory (loaded after hydration, off the page's budget) ran.
  const restoreTo = useRef<ScrollPosition | null>(null);
  const scrollBack = useRef<(position: ScrollPosition) => void>(() => undefined);
  const [memory, setMemory] = useState(false);

  const load = useCallback(
    (next: ListingUrlState) => {
      setState(next);
      inFlight.current?.abort();
      if (props.kind === 'search' && next.query === null) {
        setData(null);
        setLoading(false);
        return;
      }
      const key = listingQueryString(next);
      const known = cache.current.get(key);
      if (known !== undefined) {
        setData(known);
        setLoading(false);
        setFailed(false);
        return;
      }
      const controller = new AbortController();
      inFlight.current = controller;
      setLoading(true);
      import('./listing-api/get-listing')
        .then((api) => api.fetchListing({ kind: props.kind, id: props.id, market: props.market }, next, controller.signal))
        .then((page) => {
          cache.current.set(key, page);
          setData(page);
          setFailed(false);
          setLoading(false);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('[listing]', error);
          setFailed(true);
          setLoading(false);
        });
    },
    [props.kind, props.id, props.market],
  );

  useEffect(() => {
    let forget = (): void => undefined;
    void import('./scroll-memory').then((m) => {
      forget = m.rememberScrollOnLeave();
      restoreTo.current = m.scrollToRestore();
      scrollBack.current = m.scrollBackTo;
      setMemory(true);
    });
    if (props.kind !== 'search') cache.current.set(listingQueryString(EMPTY_STATE), staticPage(props));
    const fromUrl = parseListingUrl(window.location.search);
    // The static page is the default state: nothing to fetch unless the URL asks for more.
    if (props.kind === 'search' || listingQueryString(fromUrl) !== '') load(fromUrl);
    const onPop = (): void => load(parseListingUrl(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      forget();
    };
    // Props are the static page's and never change; `load` is stable for them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Back to this page: once the results the URL asks for are on the page, return to where it was left.
  useEffect(() => {
    if (!memory || restoreTo.current === null || loading || data === null) return;
    // On the first commit `state` is still the static page's, not yet the URL's.
    if (listingQueryString(state) !== listingQueryString(parseListingUrl(window.location.search))) return;
    scrollBack.current(restoreTo.current);
    restoreTo.current = null;
  }, [data, loading, state, memory]);

  // Open (below lg, where it covers the page) the filter panel is a dialog: focus moves in, stays in,
  // Escape closes it and focus goes back to the Filter button.
  useEffect(() => {
    if (!open || panel.current === null) return undefined;
    return trapFocus(panel.current, () => setOpen(false));
  }, [open]);

  const apply = (next: ListingUrlState): void => {
    window.history.pushState(null, '', urlFor(next));
    load(next);
  };

  const shown = data ?? { total: 0, page: 1, pages: 1, sort: props.sort, products: [], facets: { colours: [], sizes: [] } };
  const noFacets = shown.facets.colours.length === 0 && shown.facets.sizes.length === 0;
  const filtersAvailable = !noFacets && !loading;
  const changeFilter = (facet: 'colours' | 'sizes', value: string): void => {
    // A filter change applies only while filters are available (not while they load).
    if (filtersAvailable) apply(toggleFilter(state, facet, value));
  };
  const goToPage = (event: MouseEvent<HTMLAnchorElement>, page: number): void => {
    event.preventDefault();
    apply({ ...state, page });
    document.getElementById('plp-results')?.scrollIntoView({ block: 'start' });
  };
  const sorts = sortsFor(props.kind);
  const currentSort = (state.sort ?? shown.sort) as Sort;
  const count = data === null ? '' : `${shown.total} products`;
  const page = shown.page;
  const pages = shown.pages;
  const numbers = pageNumbers(page, pages);

  return (
    <div className={`plp-listing plp-listing--${view}`}>
      <div className="plp-toolbar">
        <button
          type="button"
          className="btn btn--secondary btn--small plp-toolbar__filter"
          aria-expanded={open}
          aria-controls="filters"
          onClick={() => setOpen(true)}
        >
          <Icon name="filter" d={FILTER_PATH} size={18} />
          <span>Filter</span>
        </button>
        <p className="plp-toolbar__count" aria-live="polite">
          {count}
        </p>
        <div className="plp-toolbar__views" role="group" aria-label="View">
          <button type="button" className="plp-toolbar__view" aria-pressed={view === 'grid'} onClick={() => setView('grid')}>
            Grid
          </button>
          <button type="button" className="plp-toolbar__view" aria-pressed={view === 'list'} onClick={() => setView('list')}>
            List
          </button>
        </div>
        <label className="plp-toolbar__sort">
          {'Sort by '}
          <select
            className="plp-toolbar__select"
            value={currentSort}
            onChange={(event) => apply({ ...state, sort: event.target.value as Sort, page: 1 })}
          >
            {sorts.map((s) => (
              <option value={s} key={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="plp-body">
        <section
          id="filters"
          ref={panel}
          className={open ? 'filter-panel filter-panel--open' : 'filter-panel'}
          role={open ? 'dialog' : undefined}
          aria-modal={open ? true : undefined}
          aria-labelledby="filters-title"
        >
          <div className="filter-panel__head">
            <h2 id="filters-title" className="filter-panel__title">
              Filter
            </h2>
            <button type="button" className="filter-panel__close" onClick={() => setOpen(false)}>
              <Icon name="close" d={CLOSE_PATH} size={20} />
              <span className="visually-hidden">Close filters</span>
            </button>
          </div>
          {noFacets ? (
            <p className="facets__message" role="status">
              {loading ? LOADING_FILTERS : NO_FILTERS}
            </p>
          ) : (
            <div className="facets">
              <FacetGroup
                facet="colours"
                facets={shown.facets.colours}
                chosen={state.colours}
                onToggle={(value) => changeFilter('colours', value)}
              />
              <FacetGroup facet="sizes" facets={shown.facets.sizes} chosen={state.sizes} onToggle={(value) => changeFilter('sizes', value)} />
            </div>
          )}
          <div className="facets__actions">
            <button type="button" className="btn btn--primary facets__done" onClick={() => setOpen(false)}>
              Done
            </button>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => {
                if (filtersAvailable) apply(clearFilters(state));
              }}
            >
              Clear All
            </button>
          </div>
        </section>
        <div id="plp-results" className="plp-results" aria-busy={loading}>
          <h2 className="visually-hidden">Products</h2>
          {failed ? (
            <p className="plp-empty" role="alert">
              An error occured. Please go back or try again.
            </p>
          ) : shown.products.length > 0 ? (
            <ul className={view === 'list' ? 'product-grid product-grid--list' : 'product-grid'}>
              {shown.products.map((card, i) => (
                <li className="product-grid__item" key={card.id}>
                  <ProductCard card={card} eager={i < 4} priority={i === 0} colours={state.colours} />
                </li>
              ))}
            </ul>
          ) : data !== null ? (
            <p className="plp-empty">{props.kind === 'search' ? NO_SEARCH_RESULTS : 'No products found.'}</p>
          ) : null}
          {pages > 1 ? (
            <nav className="pagination" aria-label="Pagination">
              <ul className="pagination__list">
                {page > 1 ? (
                  <li>
                    <a className="pagination__link pagination__prev" href={listingHref({ ...state, page: page - 1 })} rel="prev" onClick={(e) => goToPage(e, page - 1)}>
                      Previous
                      <span className="visually-hidden"> page</span>
                    </a>
                  </li>
                ) : null}
                {numbers.map((n, k) => (
                  <Fragment key={n}>
                    {k > 0 && n - (numbers[k - 1] ?? n) > 1 ? (
                      <li className="pagination__gap" aria-hidden="true">
                        …
                      </li>
                    ) : null}
                    <li>
                      <a
                        className="pagination__link"
                        href={listingHref({ ...state, page: n })}
                        aria-current={n === page ? 'page' : undefined}
                        onClick={(e) => goToPage(e, n)}
                      >
                        <span className="visually-hidden">Page </span>
                        {String(n)}
                      </a>
                    </li>
                  </Fragment>
                ))}
                {page < pages ? (
                  <li>
                    <a className="pagination__link pagination__next" href={listingHref({ ...state, page: page + 1 })} rel="next" onClick={(e) => goToPage(e, page + 1)}>
                      Next
                      <span className="visually-hidden"> page</span>
                    </a>
                  </li>
                ) : null}
              </ul>
            </nav>
          ) : null}
        </div>
      </div>
    </div>
  );
}
