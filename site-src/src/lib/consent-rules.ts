// The consent rule shared by the always-loaded analytics sink (lib/data-layer.ts) and the
// consent choice (features/shell/consent.ts): which cookie value means analytics is accepted, and the queues.
export type DataLayerEvent = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
    /** Events waiting for consent on this page (features/shell/consent.ts carries them to the next). */
    analyticsQueue?: DataLayerEvent[];
  }
}

/** The consent cookie (features/shell/consent.ts CONSENT_COOKIE) holds `analytics` once analytics is accepted
 * (`necessary` once refused); the browser separates cookies with '; '. */
export const CONSENTED = /(^|; )cookie-consent=analytics/;
