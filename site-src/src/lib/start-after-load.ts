// Runs the islands' start once the page has loaded, the shopper first acts, or a few seconds have passed.

/** The latest start, counted from the entry script's run (the document parsed), on a connection so slow that `load` is far off. */
export const START_AT_LATEST_MS = 3000;

/** Input that shows the shopper means to use the page now: its code is fetched at once. */
const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown'] as const;

/**
 * Calls `start` once: when the window's `load` event has fired (at once if it has), on the first
 * pointer, touch or key press, or after START_AT_LATEST_MS, whichever comes first. Why: the server
 * markup reads and navigates without JavaScript, and the islands' code fetched while the page loads
 * takes a phone's bandwidth from the stylesheet and the largest picture.
 */
export function startAfterLoad(start: () => void, target: Window = window): void {
  if (target.document.readyState === 'complete') {
    start();
    return;
  }
  let started = false;
  const timer = target.setTimeout(begin, START_AT_LATEST_MS);
  function begin(): void {
    if (started) return;
    started = true;
    target.clearTimeout(timer);
    target.removeEventListener('load', begin);
    for (const type of INTENT_EVENTS) target.removeEventListener(type, begin, { capture: true });
    start();
  }
  target.addEventListener('load', begin, { once: true });
  for (const type of INTENT_EVENTS) target.addEventListener(type, begin, { capture: true, passive: true });
}
