// The listing keeps its scroll position per URL when left, and gives it back only on Back/Forward.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberScrollOnLeave, scrollBackTo, scrollToRestore } from './scroll-memory';

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

  it('puts the card back where it stood, and keeps at it while the cards above it settle', () => {
    document.body.innerHTML = '<div id="plp-results"><article class="card" data-product-id="9"></article></div>';
    const card = document.querySelector<HTMLElement>('.card') as HTMLElement;
    let scrollY = 0;
    let cardTopInPage = 1040;
    Object.defineProperty(window, 'scrollY', { get: () => scrollY, configurable: true });
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => {
      scrollY = y;
    }) as typeof window.scrollTo);
    vi.spyOn(card, 'getBoundingClientRect').mockImplementation(() => ({ top: cardTopInPage - scrollY }) as DOMRect);
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));

    scrollBackTo({ y: 1000, card: '9', top: 40 });
    expect(card.getBoundingClientRect().top).toBe(40);
    // A frame later the cards above it are laid out 18 px taller than estimated: it moved down.
    cardTopInPage = 1058;
    for (let i = 0; i < 10 && frames.length > 0; i += 1) frames.shift()?.(0);
    expect(frames).toHaveLength(0);
    expect(card.getBoundingClientRect().top).toBe(40);
    expect(scrollY).toBe(1018);
    document.body.innerHTML = '';
  });
});
