// The commerce API client: same-origin JSON calls to /api, errors in the API's one shape.
// Every island goes through `api()` so the market, content type and error handling are the same.
export type Market = 'uk' | 'us' | 'eu';

export interface ApiErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
}

/** A refused or failed call, carrying the API's code, message and per-field messages. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.fields = body.fields ?? {};
  }
}

/** What a failed call says to the shopper: the error's own message. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const NETWORK_MESSAGE = 'Something went wrong. Please try again.';

/** The window event of an API call starting (detail 1) or ending (detail -1). */
export const API_LOAD = 'api-load';
const loading = (detail: number): boolean => dispatchEvent(new CustomEvent(API_LOAD, { detail }));

/** The market of the page the shopper is on, from its path prefix. */
export function marketOf(pathname: string = window.location.pathname): Market {
  if (pathname === '/us' || pathname.startsWith('/us/')) return 'us';
  if (pathname === '/eu' || pathname.startsWith('/eu/')) return 'eu';
  return 'uk';
}

export function prefixOf(market: Market): '' | '/us' | '/eu' {
  return market === 'uk' ? '' : `/${market}`;
}

function withMarket(path: string, market: Market): string {
  return `/api${path}${path.includes('?') ? '&' : '?'}market=${market}`;
}

/**
 * Calls the API and returns its JSON (null for an empty answer). Writes always send JSON (the API
 * refuses anything else, which is half of its CSRF defence). `headers` adds request headers
 * (Place order's Idempotency-Key); `signal` cancels a call a newer one replaces (the listing's).
 */
export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  market: Market = marketOf(),
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<T> {
  const sent: Record<string, string> = { ...headers, Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers: sent, signal };
  if (method === 'POST' || method === 'PUT') {
    sent['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  let response: Response;
  let text: string;
  // Each call's start and end, for the progress bar (features/shell/progress.ts).
  loading(1);
  try {
    response = await fetch(withMarket(path, market), init);
    text = await response.text();
  } catch {
    throw new ApiError(0, { code: 'network', message: NETWORK_MESSAGE });
  } finally {
    loading(-1);
  }
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = (parsed as { error?: ApiErrorBody } | null)?.error;
    throw new ApiError(response.status, error ?? { code: 'http', message: NETWORK_MESSAGE });
  }
  return parsed as T;
}
