// GET /api/listing: one page of a category, collection or search results with facet counts for
// the current filters (docs/api.md "Search and listings"). Loaded on the first fetch, not with the
// page: the static first page needs no request.
import * as z from 'zod/mini';
import { cardSchema } from '../../lib/product-card';
import { facetsSchema } from './facets';
import { listingQueryString, type ListingUrlState } from './url-state';

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

export async function fetchListing(scope: ListingScope, state: ListingUrlState, signal?: AbortSignal): Promise<ListingPage> {
  const params = new URLSearchParams(listingQueryString(state));
  params.set('market', scope.market);
  params.set('kind', scope.kind);
  if (scope.id !== null) params.set('id', String(scope.id));
  const response = await fetch(`/api/listing?${params.toString()}`, {
    headers: { accept: 'application/json' },
    ...(signal ? { signal } : {}),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && 'error' in body
        ? String((body as { error: { message?: unknown } }).error.message ?? response.status)
        : String(response.status);
    throw new ListingError(message);
  }
  const parsed = listingPageSchema.safeParse(body);
  if (!parsed.success) throw new ListingError('unexpected listing answer');
  return parsed.data;
}
