// The market's tracking tag (spec: a per-market tracking tag, UK, US and EU): the tag manager
// container named by the page's `<meta name="tracking-tag">` (the market's app-header content),
// loaded once per page and only after the shopper has accepted analytics cookies, the way the tag
// manager's own snippet starts it. Pages in content preview never load it (editors are not shoppers).
import { CONSENTED } from './consent-rules';
import { isPreview } from './page-view';

export const TAG_MANAGER_SCRIPT = 'https://www.googletagmanager.com/gtm.js';

let loaded = false;

/** The container id of this page's market, or null when the market has none. */
export function trackingTagId(): string | null {
  return document.querySelector('meta[name="tracking-tag"]')?.getAttribute('content') || null;
}

/** Loads the tag now if it may load and has not; true when it started loading. */
export function loadTrackingTag(): boolean {
  const id = trackingTagId();
  if (loaded || id === null || !CONSENTED.test(document.cookie) || isPreview()) return false;
  loaded = true;
  (window.dataLayer ??= []).push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${TAG_MANAGER_SCRIPT}?id=${encodeURIComponent(id)}`;
  document.head.append(script);
  return true;
}

/** Tests only: as on a new page. */
export function resetTrackingTagForTests(): void {
  loaded = false;
}
