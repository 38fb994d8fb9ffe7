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
    expect(JSON.parse(window.sessionStorage.getItem('listing-scroll:/search?query=dress') ?? 'null')).toEqual({ y: 2345, card: null, top: 0 });

    arrivedBy('back_forward');
    expect(scrollToRestore()).toEqual({ y: 2345, card: null, top: 0 });
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
    window.sessionStorage.setItem('listing-scroll:/browse/womens?page=2', '{"y":900,"card":null,"top":0}');
    expect(scrollToRestore()).toBeNull();
  });

  it('keeps the first card in view and where it stood, and ignores what it cannot read', () => {
    window.history.replaceState(null, '', '/browse/womens');
    document.body.innerHTML = '<div id="plp-results"><article class="card" data-product-id="7"></article><article class="card" data-product-id="9"></article></div>';
    const [above, inView] = Array.from(document.querySelectorAll<HTMLElement>('.card')) as [HTMLElement, HTMLElement];
    vi.spyOn(above, 'getBoundingClientRect').mockReturnValue({ top: -400, bottom: -20 } as DOMRect);
    vi.spyOn(inView, 'getBoundingClientRect').mockReturnValue({ top: 36.6, bottom: 400 } as DOMRect);
    Object.defineProperty(window, 'scrollY', { value: 1800, configurable: true });
    const forget = rememberScrollOnLeave();
    window.dispatchEvent(new Event('pagehide'));
    forget();
    arrivedBy('back_forward');
    expect(scrollToRestore()).toEqual({ y: 1800, card: '9', top: 37 });
    window.sessionStorage.setItem('listing-scroll:/browse/womens', 'not json');
    expect(scrollToRestore()).toBeNull();
    window.sessionStorage.setItem('listing-scroll:/browse/womens', '{"y":"far"}');
    expect(scrollToRestore()).toBeNull();
    document.body.innerHTML = '';
  });
});
