// Card and gift card details go from the browser straight to the provider's tokenisation URL (the
// payment-methods answer's `tokenize_url`), never to /api: the API only ever sees the token.
import { ApiError, type ApiErrorBody } from '../../lib/api';
import type { TokenRequest } from './card-details';

const FAILED = 'Something went wrong. Please try again.';

/** Refuses a tokenisation URL on the shop's API: card numbers must never reach it. */
export function isApiUrl(url: string): boolean {
  const target = new URL(url, window.location.href);
  return target.origin === window.location.origin && (target.pathname === '/api' || target.pathname.startsWith('/api/'));
}

/** The token for `details`; an error answer ({error: {code, message, fields}}) is an ApiError. */
export async function tokenize(url: string, details: TokenRequest): Promise<string> {
  if (isApiUrl(url)) throw new ApiError(0, { code: 'tokenize_url', message: FAILED });
  let response: Response;
  try {
    // No cookies: the provider needs none, and a third-party endpoint must not get the shop's.
    response = await fetch(url, {
      method: 'POST',
      credentials: 'omit',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(details),
    });
  } catch {
    throw new ApiError(0, { code: 'network', message: FAILED });
  }
  const body = (await response.json().catch(() => null)) as { token?: unknown; error?: ApiErrorBody } | null;
  if (response.ok && typeof body?.token === 'string') return body.token;
  throw new ApiError(response.status, body?.error ?? { code: 'http', message: FAILED });
}
