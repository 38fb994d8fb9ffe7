// Reloads the page when a script chunk fails to load (a deploy replaced the hashed files), at most once a minute.

const RELOADED_AT = 'chunk-reload-at';

/**
 * A script chunk failed to load: most likely a deploy replaced the hashed files while this page was
 * open, and a reload brings the page that names the new ones. At most once a minute (spec), so a
 * chunk that is really missing cannot make the page reload for ever.
 */
export function reloadForNewChunks(): void {
  // Storage refused: this throws before reloading, so the page cannot loop either.
  if (Date.now() - Number(sessionStorage.getItem(RELOADED_AT)) < 60_000) return;
  sessionStorage.setItem(RELOADED_AT, `${Date.now()}`);
  location.reload();
}

/** Vite's loader of every lazy chunk (islands, the session, panels) announces a failure with this event. */
export function reloadOnChunkFailure(): void {
  addEventListener('vite:preloadError', reloadForNewChunks);
}
