// The progress bar at the top of the window, for page loads (a followed link) and data loads (API
// calls). Spec constants: the bar runs for 5000 ms, and a load shorter than the 200 ms throttle
// shows nothing; once shown it stays at least 200 ms (the minimum data-fetch delay), so it never
// flickers. Loaded with the session, after hydration.
import { sameTabPage } from '../../lib/links';
import { API_LOAD } from '../../lib/api';

/** How long the bar takes to run most of its way while a load lasts. */
export const PROGRESS_DURATION_MS = 5000;
/** Loads that finish sooner show no bar. */
export const PROGRESS_THROTTLE_MS = 200;
/** A bar once shown stays this long at least. */
export const MIN_SHOWN_MS = 200;
/** Where the bar waits while the load goes on: the rest is drawn when it ends. */
const RUN_TO = 0.9;

export class ProgressBar {
  private readonly bar: HTMLElement;
  private loads = 0;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private shownAt: number | null = null;

  constructor(private readonly root: HTMLElement) {
    this.bar = root.firstElementChild as HTMLElement;
  }

  /** A load starts: the bar shows once it has lasted the throttle. */
  begin(): void {
    this.loads += 1;
    if (this.loads === 1 && this.shownAt === null && this.pending === null) {
      this.pending = setTimeout(() => this.show(), PROGRESS_THROTTLE_MS);
    }
  }

  /** A load ends: with none left, the bar completes (after its minimum time) or never shows. */
  end(): void {
    this.loads = Math.max(0, this.loads - 1);
    if (this.loads > 0) return;
    if (this.pending !== null) {
      clearTimeout(this.pending);
      this.pending = null;
    }
    if (this.shownAt === null) return;
    const left = MIN_SHOWN_MS - (Date.now() - this.shownAt);
    this.pending = setTimeout(() => this.complete(), Math.max(0, left));
  }

  /** Back to rest, with nothing in flight (a page shown again from the back/forward cache). */
  reset(): void {
    this.loads = 0;
    if (this.pending !== null) clearTimeout(this.pending);
    this.pending = null;
    this.hide();
  }

  get visible(): boolean {
    return this.shownAt !== null;
  }

  private show(): void {
    this.pending = null;
    this.shownAt = Date.now();
    this.root.setAttribute('data-active', '');
    this.draw(0, 'none');
    // The next frame starts the run from 0, so the transition has a start to move from.
    requestAnimationFrame(() => {
      if (this.shownAt !== null) this.draw(RUN_TO, `transform ${PROGRESS_DURATION_MS}ms cubic-bezier(.1,.6,.3,1)`);
    });
  }

  private complete(): void {
    this.draw(1, `transform ${MIN_SHOWN_MS}ms ease-out`);
    this.pending = setTimeout(() => {
      this.pending = null;
      this.hide();
    }, MIN_SHOWN_MS);
  }

  private hide(): void {
    this.shownAt = null;
    this.root.removeAttribute('data-active');
    this.draw(0, 'none');
  }

  private draw(scale: number, transition: string): void {
    this.bar.style.transition = transition;
    this.bar.style.transform = `scaleX(${scale})`;
  }
}

/** A click that leaves this page for another one of the shop in this tab. */
export function isPageLoad(event: MouseEvent, location: Location = window.location): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  const to = link === null ? null : sameTabPage(link, location);
  if (to === null) return false;
  // Only the fragment changes: the page stays.
  return !(to.pathname === location.pathname && to.search === location.search && to.hash !== '');
}

/** The bar, following every API call and every link that loads a page. */
export function followLoads(): ProgressBar {
  const root = document.createElement('div');
  root.className = 'progress-bar';
  // Visual only: a screen reader hears the new page, or the part of it that changed.
  root.setAttribute('aria-hidden', 'true');
  root.append(document.createElement('div'));
  document.body.append(root);
  const bar = new ProgressBar(root);
  window.addEventListener(API_LOAD, (event) => {
    if ((event as CustomEvent<number>).detail > 0) bar.begin();
    else bar.end();
  });
  // On the window, after every other handler (the islands' and the document's): a link one of
  // them took over (a panel opener) has its default prevented and loads nothing.
  window.addEventListener('click', (event) => {
    if (isPageLoad(event)) bar.begin();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) bar.reset();
  });
  return bar;
}
