// The listing keeps its scroll position per URL when left, and gives it back only on Back/Forward.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberScrollOnLeave, scrollToRestore } from './scroll-memory';

function arrivedBy(type: string): void {
  vi.spyOn(window.performance, 'getEntriesByType').mockReturnValue([{ type } as unknown as PerformanceEntry]);
}

describe('listing scroll memory', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('keeps the position of this URL when the page is left, and restores it on Back only', () => {
    window.history.replaceState(null, '', '/search?query=dress');
    const forget = rememberScrollOnLeave();
    Object.defineProperty(window, 'scrollY', { value: 2345.4, configurable: true });
    window.dispatchEvent(new Event('pagehide'));
    forget();
    expect(window.sessionStorage.getItem('listing-scroll:/search?query=dress')).toBe('2345');

    arrivedBy('back_forward');
    expect(scrollToRestore()).toBe(2345);
    arrivedBy('navigate');
    expect(scrollToRestore()).toBeNull();
    arrivedBy('reload');
    expect(scrollToRestore()).toBeNull();
  });

  it('has nothing to restore for another URL, or after the listener is gone', () => {
    window.history.replaceState(null, '', '/browse/womens');
    const forget = rememberScrollOnLeave();
    forget();
    window.dispatchEvent(new Event('pagehide'));
    arrivedBy('back_forward');
    expect(scrollToRestore()).toBeNull();
    window.sessionStorage.setItem('listing-scroll:/browse/womens?page=2', '900');
    expect(scrollToRestore()).toBeNull();
  });
});
