// The full-screen search overlay: input debounced 200 ms against
// GET /api/search (search-and-listings work), Popular Searches (≤ 5 chips, each runs a search),
// Product Matches (≤ 10 cards, no price). Enter goes to /search?query=…, never for an empty or
// whitespace-only term; the no-results message only above 3 characters.
import { useEffect, useState, type ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { store } from '../../lib/store';
import { Modal } from '../../components/Modal';
import { getSearch, type SearchAnswer } from './search-api/get-search';

export const SEARCH_DEBOUNCE_MS = 200;
export const NO_RESULTS = 'No products found matching your search criteria.';

const close = (): void => store.getState().closePanel('search');

export function searchHref(prefix: string, term: string): string | null {
  const query = term.trim();
  return query === '' ? null : `${prefix}/search?query=${encodeURIComponent(query)}`;
}

export default function SearchOverlay(): ReactElement {
  const prefix = prefixOf(marketOf());
  const [term, setTerm] = useState('');
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);

  useEffect(() => {
    const query = term.trim();
    if (query === '') {
      setAnswer(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      getSearch(query)
        .then((found) => current && setAnswer({ products: found.products.slice(0, 10), suggestions: found.suggestions.slice(0, 5) }))
        .catch(() => current && setAnswer({ products: [], suggestions: [] }));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [term]);

  const go = (value: string): void => {
    const href = searchHref(prefix, value);
    if (href !== null) window.location.assign(href);
  };

  return (
    <Modal title="Search" showTitle={false} variant="overlay" onClose={close}>
      <form
        role="search"
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          go(term);
        }}
      >
        <label className="visually-hidden" htmlFor="search-term">
          Search
        </label>
        <input className="field__input search__input" id="search-term" type="search" data-autofocus value={term} onChange={(event) => setTerm(event.target.value)} />
      </form>
      {answer !== null && answer.suggestions.length > 0 && (
        <section aria-labelledby="search-popular">
          <h2 id="search-popular">Popular Searches</h2>
          <ul className="search__chips">
            {answer.suggestions.map((s) => (
              <li key={s}>
                <button type="button" className="btn btn--secondary btn--small" onClick={() => go(s)}>
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {answer !== null && answer.products.length > 0 && (
        <section aria-labelledby="search-matches">
          <h2 id="search-matches">Product Matches</h2>
          <ul className="search__products">
            {answer.products.map((p) => (
              <li key={p.url}>
                <a href={p.url}>
                  {p.image_url !== null && <img src={p.image_url} alt="" width="150" height="200" loading="lazy" />}
                  <span>{p.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {answer !== null && answer.products.length === 0 && term.length > 3 && <p>{NO_RESULTS}</p>}
    </Modal>
  );
}
