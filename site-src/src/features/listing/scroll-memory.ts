// Back to a listing restores where the shopper was (the spec: "going back restores the saved
// position"). The browser's own restoration runs at load, before the island has fetched the URL's
// results (search results, filters, later pages), when the page is still too short: so the position
// is kept per URL when the page is left, and put back once the results are on the page. It is kept
// as the first card in view and where it stood, not only as a scroll offset: cards far from the
// viewport are laid out at an estimated height until they come near it (`content-visibility`), so
// the same offset can show other cards on the way back.

const KEY = 'listing-scroll:';

function here(): string {
  return `${KEY}${window.location.pathname}${window.location.search}`;
}

/** Where the shopper was: the scroll offset, and the first card in view with its distance from the viewport's top. */
export interface ScrollPosition {
  y: number;
  card: string | null;
  top: number;
}

/** Frames the card must stand where it stood before the restore stops. */
const STEADY_FRAMES = 3;

const CARDS = '#plp-results .card[data-product-id]';

function firstCardInView(): HTMLElement | null {
  for (const card of Array.from(document.querySelectorAll<HTMLElement>(CARDS))) {
    if (card.getBoundingClientRect().bottom > 0) return card;
  }
  return null;
}

function cardById(id: string): HTMLElement | null {
  return Array.from(document.querySelectorAll<HTMLElement>(CARDS)).find((card) => card.dataset.productId === id) ?? null;
}

/** Keeps the scroll position of this listing URL when the page is left; returns the unsubscriber. */
export function rememberScrollOnLeave(): () => void {
  const save = (): void => {
    const card = firstCardInView();
    const position: ScrollPosition = {
      y: Math.round(window.scrollY),
      card: card?.dataset.productId ?? null,
      top: Math.round(card?.getBoundingClientRect().top ?? 0),
    };
    try {
      window.sessionStorage.setItem(here(), JSON.stringify(position));
    } catch {
      // Storage full or blocked: going back then starts at the top, as without this.
    }
  };
  window.addEventListener('pagehide', save);
  return () => window.removeEventListener('pagehide', save);
}

/** The position to restore: only when this page was reached by Back or Forward, and one was kept. */
export function scrollToRestore(): ScrollPosition | null {
  const navigation = window.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type !== 'back_forward') return null;
  let saved: Partial<ScrollPosition> | null = null;
  try {
    saved = JSON.parse(window.sessionStorage.getItem(here()) ?? 'null') as Partial<ScrollPosition> | null;
  } catch {
    return null;
  }
  const { y, card, top } = saved ?? {};
  if (typeof y !== 'number' || !Number.isFinite(y) || y <= 0) return null;
  return { y, card: typeof card === 'string' ? card : null, top: typeof top === 'number' && Number.isFinite(top) ? top : 0 };
}

/**
 * Scrolls back to `position`: to its offset, then so that its card stands where it stood. Parts of
 * the page can still be settling (cards near the viewport laid out at their real height, the
 * footer's islands, late facets; while the page is too short the browser stops short), so try
 * again each frame for up to a second, and give up at once if the shopper scrolls meanwhile.
 */
export function scrollBackTo(position: ScrollPosition): void {
  let frames = 0;
  let moved = false;
  const stop = (): void => {
    moved = true;
  };
  window.addEventListener('wheel', stop, { once: true, passive: true });
  window.addEventListener('touchstart', stop, { once: true, passive: true });
  window.addEventListener('keydown', stop, { once: true });
  const card = position.card === null ? null : cardById(position.card);
  let target = position.y;
  let steady = 0;
  const attempt = (): void => {
    if (moved) return;
    if (card !== null) target = window.scrollY + card.getBoundingClientRect().top - position.top;
    window.scrollTo(0, target);
    frames += 1;
    const off = card === null ? window.scrollY - target : card.getBoundingClientRect().top - position.top;
    // Done once it has stood in place for a few frames: cards above it that come near the viewport
    // are laid out at their real height a frame later, which can move it again after a first match.
    steady = Math.abs(off) > 1 ? 0 : steady + 1;
    if (steady < STEADY_FRAMES && frames < 60) window.requestAnimationFrame(attempt);
  };
  attempt();
}
