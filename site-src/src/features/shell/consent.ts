// Cookie consent: the shopper's stored choice (strictly necessary cookies always; analytics only
// once accepted) and the analytics queue, which holds events until that choice allows sending them.
import { pushDataLayer } from '../../lib/data-layer';
import type { DataLayerEvent } from '../../lib/consent-rules';
import { readCookie } from '../../lib/cookies';
import { loadTrackingTag } from '../../lib/tracking-tag';

/** Events waiting for consent when a page is left, for the next page of the browser session. */
export const QUEUE_KEY = 'analytics-queue';
/** A visitor who never answers does not grow the queue without bound: the oldest are dropped. */
export const QUEUE_MAX = 100;
/** The choice's cookie; consent-rules.ts CONSENTED recognises its accepted value. */
export const CONSENT_COOKIE = 'cookie-consent';
/** How long a choice is kept before the banner asks again (about six months). */
export const CONSENT_MAX_AGE_S = 180 * 86400;

export interface Consent {
  analytics: boolean;
}

/** The cookie's value: `analytics` (accepted) or `necessary` (refused); anything else is no choice. */
export function parseConsent(value: string | null): Consent | null {
  if (value === 'analytics') return { analytics: true };
  if (value === 'necessary') return { analytics: false };
  return null;
}

export function readConsent(): Consent | null {
  return parseConsent(readCookie(CONSENT_COOKIE));
}

function storedQueue(): DataLayerEvent[] {
  try {
    const queue: unknown = JSON.parse(window.sessionStorage.getItem(QUEUE_KEY) ?? '[]');
    return Array.isArray(queue) ? (queue as DataLayerEvent[]) : [];
  } catch {
    return [];
  }
}

function clearStoredQueue(): void {
  try {
    window.sessionStorage.removeItem(QUEUE_KEY);
  } catch {
    // Storage blocked: there is no stored queue.
  }
}

/**
 * Carries the queue across the visit's pages: the events of earlier pages go before this page's,
 * and whatever still waits when the page is left is stored (the newest QUEUE_MAX) for the next.
 */
export function keepQueue(): void {
  window.analyticsQueue = [...storedQueue(), ...(window.analyticsQueue ?? [])];
  clearStoredQueue();
  window.addEventListener('pagehide', () => {
    const queue = window.analyticsQueue ?? [];
    if (queue.length === 0) return;
    try {
      window.sessionStorage.setItem(QUEUE_KEY, JSON.stringify(queue.slice(-QUEUE_MAX)));
    } catch {
      // Storage full or blocked: the events are lost, never sent without consent.
    }
  });
}

/** Sends the queued events once analytics is accepted (in the order they happened). */
export function flushQueue(): void {
  if (readConsent()?.analytics !== true) return;
  const queue = [...storedQueue(), ...(window.analyticsQueue ?? [])];
  window.analyticsQueue = [];
  clearStoredQueue();
  queue.forEach(pushDataLayer);
  // The market's tag manager reads the dataLayer from here on.
  loadTrackingTag();
}

/** The analytics sink (lib/data-layer.ts): sent with consent, otherwise queued. */
export const sendEvent = pushDataLayer;

/** Stores the choice for every market (path /); accepting sends the queue, refusing drops it. */
export function saveConsent(consent: Consent): void {
  document.cookie = `${CONSENT_COOKIE}=${consent.analytics ? 'analytics' : 'necessary'}; Max-Age=${CONSENT_MAX_AGE_S}; Path=/; SameSite=Lax`;
  if (consent.analytics) flushQueue();
  else {
    window.analyticsQueue = [];
    clearStoredQueue();
  }
}
