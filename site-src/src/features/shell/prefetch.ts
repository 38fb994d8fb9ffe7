// Link prefetch: pages of the shop that the shopper can see, or points at, are fetched into the
// HTTP cache while the browser is idle, so following the link starts from the cache. Skipped on a
// 2g connection or with data saver on (spec), and capped per page so a long listing does not
// fetch every product. Loaded with the session, after hydration.
import { sameTabPage } from '../../lib/links';

/** requestIdleCallback's timeout: the prefetch waits for an idle moment at most this long. */
export const PREFETCH_IDLE_TIMEOUT_MS = 2000;
/** Pages fetched ahead per page view, the links first seen first; pointing at a link always counts. */
export const PREFETCH_MAX = 12;

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** Whether the connection allows fetching ahead: not with data saver, not on 2g (or slow-2g). */
export function mayPrefetch(connection: NetworkInformation | undefined = (navigator as { connection?: NetworkInformation }).connection): boolean {
  return connection?.saveData !== true && !(connection?.effectiveType ?? '').includes('2g');
}

/** The page a link opens, when it is another page of the shop worth fetching ahead; else null. */
export function prefetchTarget(link: HTMLAnchorElement, location: Location = window.location): string | null {
  const to = sameTabPage(link, location);
  if (to === null) return null;
  to.hash = '';
  if (to.pathname.startsWith('/api/') || to.searchParams.has('logout')) return null;
  if (to.pathname === location.pathname && to.search === location.search) return null;
  return to.href;
}

export class Prefetcher {
  private readonly fetched = new Set<string>();
  private seen = 0;

  /** Fetches `url` ahead once; `asked` (the shopper points at the link) passes the cap. */
  prefetch(url: string, asked = false): void {
    if (this.fetched.has(url) || (!asked && this.seen >= PREFETCH_MAX)) return;
    this.fetched.add(url);
    if (!asked) this.seen += 1;
    const hint = document.createElement('link');
    hint.rel = 'prefetch';
    hint.href = url;
    document.head.append(hint);
  }
}

function onIdle(run: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: PREFETCH_IDLE_TIMEOUT_MS });
  else setTimeout(run, PREFETCH_IDLE_TIMEOUT_MS);
}

/** Watches the page's links: those in view are fetched when idle, one pointed at right away. */
export function followPrefetch(): Prefetcher | null {
  if (!mayPrefetch() || typeof IntersectionObserver !== 'function') return null;
  const prefetcher = new Prefetcher();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const url = prefetchTarget(entry.target as HTMLAnchorElement);
      if (url !== null) onIdle(() => prefetcher.prefetch(url));
    }
  });
  // A set, not a mark on the link: an island not yet hydrated must find its markup unchanged.
  const watched = new WeakSet<Element>();
  let scheduled = false;
  const watch = (): void => {
    scheduled = false;
    for (const link of Array.from(document.querySelectorAll('a[href]'))) {
      if (watched.has(link)) continue;
      watched.add(link);
      observer.observe(link);
    }
  };
  const watchSoon = (): void => {
    if (scheduled) return;
    scheduled = true;
    onIdle(watch);
  };
  watchSoon();
  // Links drawn later (a listing's next page, search results) are watched too.
  new MutationObserver(watchSoon).observe(document.body, { childList: true, subtree: true });
  const pointed = (event: Event): void => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    const url = link instanceof HTMLAnchorElement ? prefetchTarget(link) : null;
    if (url !== null) prefetcher.prefetch(url, true);
  };
  document.addEventListener('pointerover', pointed, { passive: true });
  document.addEventListener('focusin', pointed);
  return prefetcher;
}
