// Starting the islands after load: once the priority picture is painted, on the first press, or at the latest after a few seconds; once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { START_AT_LATEST_MS, startAfterLoad } from './start-after-load';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** The document still loading, as when the entry script runs on a page with pictures to fetch. */
function loading(): void {
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
}

/** Runs what the page would run until its next painted frame (timers, frames and promises). */
async function nextPaint(): Promise<void> {
  await vi.advanceTimersByTimeAsync(50);
}

describe('startAfterLoad', () => {
  it('starts after the next painted frame when the page has already loaded', async () => {
    vi.useFakeTimers();
    const start = vi.fn();
    startAfterLoad(start);
    expect(start).not.toHaveBeenCalled();
    await nextPaint();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('waits for load, then for the priority picture to be decoded and painted, then starts once', async () => {
    vi.useFakeTimers();
    loading();
    document.body.innerHTML = '<img fetchpriority="high" src="/media/hero.jpg" alt="">';
    let decoded = (): void => undefined;
    const picture = document.querySelector('img') as HTMLImageElement;
    picture.decode = () => new Promise<void>((resolve) => (decoded = resolve));
    const start = vi.fn();
    startAfterLoad(start);
    await nextPaint();
    expect(start).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    await nextPaint();
    expect(start, 'the picture is not decoded yet').not.toHaveBeenCalled();
    decoded();
    await nextPaint();
    expect(start).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pointerdown'));
    await vi.advanceTimersByTimeAsync(START_AT_LATEST_MS);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts on the first press, key or touch before load', async () => {
    for (const type of ['pointerdown', 'keydown', 'touchstart']) {
      vi.useFakeTimers();
      loading();
      const start = vi.fn();
      startAfterLoad(start);
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect(start, type).toHaveBeenCalledTimes(1);
      window.dispatchEvent(new Event('load'));
      await nextPaint();
      expect(start, type).toHaveBeenCalledTimes(1);
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('starts after the longest wait when load is far off', async () => {
    vi.useFakeTimers();
    loading();
    const start = vi.fn();
    startAfterLoad(start);
    await vi.advanceTimersByTimeAsync(START_AT_LATEST_MS - 1);
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(start).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('load'));
    await nextPaint();
    expect(start).toHaveBeenCalledTimes(1);
  });
});
