// GET /api/listing: one page of a category, collection or search results with facet counts for
// the current filters (docs/api.md "Search and listings"), through the one API client (lib/api.ts).
// Loaded on the first fetch, not with the page: the static first page needs no request.
import * as z from 'zod/mini';
import { api, type Market } from '../../../lib/api';
import { cardSchema } from '../../../lib/product-card';
import { facetsSchema } from '../facets';
import { listingQueryString, type ListingUrlState } from '../url-state';

export const listingPageSchema = z.object({
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  sort: z.string(),
  products: z.array(cardSchema),
  facets: facetsSchema,
});

export type ListingPage = z.infer<typeof listingPageSchema>;

export interface ListingScope {
  kind: 'category' | 'collection' | 'search';
  id: number | null;
  market: string;
}

export class ListingError extends Error {}

/** The page of `scope` that `state` asks for; `signal` cancels it when a newer choice replaces it. */
export async function fetchListing(scope: ListingScope, state: ListingUrlState, signal?: AbortSignal): Promise<ListingPage> {
  const params = new URLSearchParams(listingQueryString(state));
  params.set('kind', scope.kind);
  if (scope.id !== null) params.set('id', String(scope.id));
  // The market comes from the page's own props, which the generator writes as a market name.
  const body = await api<unknown>('GET', `/listing?${params.toString()}`, undefined, scope.market as Market, {}, signal);
  const parsed = listingPageSchema.safeParse(body);
  if (!parsed.success) throw new ListingError('unexpected listing answer');
  return parsed.data;
}
