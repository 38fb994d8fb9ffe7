// Chunk reload: a failed script chunk reloads the page, at most once a minute.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadForNewChunks, reloadOnChunkFailure } from './chunk-reload';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  window.removeEventListener('vite:preloadError', reloadForNewChunks);
});

describe('chunk reload', () => {
  it('loads the page again when a script chunk fails, at most once a minute', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z'), toFake: ['Date'] });
    window.sessionStorage.clear();
    reloadOnChunkFailure();
    // Vite's loader announces a lazy chunk that failed to load with this event.
    window.dispatchEvent(new Event('vite:preloadError'));
    expect(reload).toHaveBeenCalledTimes(1);
    vi.setSystemTime(new Date('2026-11-26T12:00:59Z'));
    reloadForNewChunks();
    expect(reload).toHaveBeenCalledTimes(1);
    vi.setSystemTime(new Date('2026-11-26T12:01:01Z'));
    reloadForNewChunks();
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
