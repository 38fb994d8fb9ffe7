// Starting the islands after load: on `load`, on the first press, or at the latest after a few seconds; once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { START_AT_LATEST_MS, startAfterLoad } from './start-after-load';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The document still loading, as when the entry script runs on a page with pictures to fetch. */
function loading(): void {
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
}

describe('startAfterLoad', () => {
  it('starts at once when the page has already loaded', () => {
    const start = vi.fn();
    startAfterLoad(start);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('waits for load, then starts once', () => {
    vi.useFakeTimers();
    loading();
    const start = vi.fn();
    startAfterLoad(start);
    expect(start).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    expect(start).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(START_AT_LATEST_MS);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts on the first press, key or touch before load', () => {
    for (const type of ['pointerdown', 'keydown', 'touchstart']) {
      vi.useFakeTimers();
      loading();
      const start = vi.fn();
      startAfterLoad(start);
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect(start, type).toHaveBeenCalledTimes(1);
      window.dispatchEvent(new Event('load'));
      expect(start, type).toHaveBeenCalledTimes(1);
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('starts after the longest wait when load is far off', () => {
    vi.useFakeTimers();
    loading();
    const start = vi.fn();
    startAfterLoad(start);
    vi.advanceTimersByTime(START_AT_LATEST_MS - 1);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('load'));
    expect(start).toHaveBeenCalledTimes(1);
  });
});
