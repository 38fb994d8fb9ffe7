// Runs the islands' start once the page has loaded and painted its largest picture, the shopper first acts, or a few seconds have passed.

/** The latest start, counted from the entry script's run (the document parsed), on a connection so slow that `load` is far off. */
export const START_AT_LATEST_MS = 3000;

/** Input that shows the shopper means to use the page now: its code is fetched at once. */
const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown'] as const;

/**
 * Resolves once the page's priority picture (the one fetched first: `fetchpriority="high"`, the
 * largest paint of the hero, the product and the listing) is decoded and a frame has painted it.
 * `load` only says it has arrived: an asynchronously decoded picture is painted a frame or more
 * later, and a fetch started in between still competes with it.
 */
function priorityPicturePainted(target: Window): Promise<void> {
  const picture = target.document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  const decoded = picture === null ? Promise.resolve() : picture.decode().catch(() => undefined);
  // A task queued from the frame's callback runs after that frame is painted.
  return decoded.then(() => new Promise<void>((resolve) => target.requestAnimationFrame(() => target.setTimeout(resolve, 0))));
}

/**
 * Calls `start` once: when the window has loaded and painted its priority picture (at once if it
 * already has), on the first pointer, touch or key press, or after START_AT_LATEST_MS, whichever
 * comes first. Why: the server markup reads and navigates without JavaScript, and the islands' code
 * fetched while the page loads takes a phone's bandwidth from the stylesheet and the largest picture.
 */
export function startAfterLoad(start: () => void, target: Window = window): void {
  // Every trigger stays armed; the first one to fire starts, the others find it done.
  let started = false;
  function begin(): void {
    if (started) return;
    started = true;
    start();
  }
  target.setTimeout(begin, START_AT_LATEST_MS);
  const loaded = (): void => void priorityPicturePainted(target).then(begin);
  if (target.document.readyState === 'complete') loaded();
  else target.addEventListener('load', loaded, { once: true });
  for (const type of INTENT_EVENTS) target.addEventListener(type, begin, { capture: true, passive: true });
}
