// Listing state in the URL: page, sort (field-direction, e.g. price-asc; a separate
// `direction` is accepted too), query, and filters[name] (repeatable; a range is low-high).
// A filter change drops the page. Only non-default values are written, so the static first page's
// own URL has no query string.

export type Sort = 'featured' | 'relevance' | 'newest' | 'price-asc' | 'price-desc';

export const SORT_LABELS: Record<Sort, string> = {
  featured: 'Featured',
  relevance: 'Relevance',
  newest: 'Newest',
  'price-asc': 'Price: Low to High',
  'price-desc': 'Price: High to Low',
};

export interface ListingUrlState {
  page: number;
  /** null: the page's default order (featured, or relevance on search results). */
  sort: Sort | null;
  query: string | null;
  colours: string[];
  sizes: string[];
  /** `low-high` in major units, as typed in the URL. */
  price: string | null;
}

export const EMPTY_STATE: ListingUrlState = { page: 1, sort: null, query: null, colours: [], sizes: [], price: null };

function isSort(value: string): value is Sort {
  return Object.prototype.hasOwnProperty.call(SORT_LABELS, value);
}

/** Reads the state from a query string (`?a=b` or `a=b`). Unknown or malformed values are dropped. */
export function parseListingUrl(search: string): ListingUrlState {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page') ?? '1');
  const rawSort = params.get('sort');
  const direction = params.get('direction');
  const combined = rawSort !== null && direction !== null && !rawSort.includes('-') ? `${rawSort}-${direction}` : rawSort;
  const query = params.get('query')?.trim() ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    sort: combined !== null && isSort(combined) ? combined : null,
    query: query === '' ? null : query,
    colours: [...new Set([...params.getAll('filters[Color]'), ...params.getAll('filters[color]')])],
    sizes: [...new Set([...params.getAll('filters[Size]'), ...params.getAll('filters[size]')])],
    price: params.get('filters[price]'),
  };
}

/** The query string (without `?`) for a state; empty for the default state. */
export function listingQueryString(state: ListingUrlState): string {
  const params = new URLSearchParams();
  if (state.query !== null) params.set('query', state.query);
  for (const colour of state.colours) params.append('filters[Color]', colour);
  for (const size of state.sizes) params.append('filters[Size]', size);
  if (state.price !== null) params.set('filters[price]', state.price);
  if (state.sort !== null) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params.toString();
}

/** A link to the state on the current page: `?…`, or `?` for the default state. */
export function listingHref(state: ListingUrlState): string {
  return `?${listingQueryString(state)}`;
}

/** Toggles one filter value; a filter change always goes back to page 1. */
export function toggleFilter(state: ListingUrlState, facet: 'colours' | 'sizes', value: string): ListingUrlState {
  const current = state[facet];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...state, [facet]: next, page: 1 };
}

export function clearFilters(state: ListingUrlState): ListingUrlState {
  return { ...state, colours: [], sizes: [], price: null, page: 1 };
}

export function sameState(a: ListingUrlState, b: ListingUrlState): boolean {
  return listingQueryString(a) === listingQueryString(b);
}

/** Page numbers to link: the first, the last, and two either side of the current one. */
export function pageNumbers(page: number, pages: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= pages; n += 1) {
    if (n === 1 || n === pages || (n >= page - 2 && n <= page + 2)) out.push(n);
  }
  return out;
}
