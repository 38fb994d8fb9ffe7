// Back to a listing restores where the shopper was (the spec: "going back restores the saved
// position"). The browser's own restoration runs at load, before the island has fetched the URL's
// results (search results, filters, later pages), when the page is still too short: so the position
// is kept per URL when the page is left, and put back once the results are on the page.

const KEY = 'listing-scroll:';

function here(): string {
  return `${KEY}${window.location.pathname}${window.location.search}`;
}

/** Keeps the scroll position of this listing URL when the page is left; returns the unsubscriber. */
export function rememberScrollOnLeave(): () => void {
  const save = (): void => {
    try {
      window.sessionStorage.setItem(here(), String(Math.round(window.scrollY)));
    } catch {
      // Storage full or blocked: going back then starts at the top, as without this.
    }
  };
  window.addEventListener('pagehide', save);
  return () => window.removeEventListener('pagehide', save);
}

/** The position to restore: only when this page was reached by Back or Forward, and one was kept. */
export function scrollToRestore(): number | null {
  const navigation = window.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type !== 'back_forward') return null;
  let saved: string | null = null;
  try {
    saved = window.sessionStorage.getItem(here());
  } catch {
    return null;
  }
  const y = Number(saved);
  return saved !== null && Number.isFinite(y) && y > 0 ? y : null;
}

/**
 * Scrolls back to `y`. Parts below the results (the footer's islands, late facets) can still be
 * settling, so while the page is too short the browser stops short: try again each frame for up
 * to a second, and give up at once if the shopper scrolls meanwhile.
 */
export function scrollBackTo(y: number): void {
  let frames = 0;
  let moved = false;
  const stop = (): void => {
    moved = true;
  };
  window.addEventListener('wheel', stop, { once: true, passive: true });
  window.addEventListener('touchstart', stop, { once: true, passive: true });
  window.addEventListener('keydown', stop, { once: true });
  const attempt = (): void => {
    if (moved) return;
    window.scrollTo(0, y);
    frames += 1;
    if (Math.abs(window.scrollY - y) > 1 && frames < 60) window.requestAnimationFrame(attempt);
  };
  attempt();
}
