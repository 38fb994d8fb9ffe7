// The shop finder (the ShopFinder island's component): a search reorders the list and the map's
// numbers nearest first with distances, keeps the query in the URL (Back restores the previous
// search), and says so when the query is empty or unknown; the visitor's location ranks the shops
// without going into the URL.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noShopsProps, shopFinderProps } from '../../testing/shop-finder-fixtures';
import ShopFinder from './shop-finder';

function shopNames(): string[] {
  return Array.from(document.querySelectorAll('.shop-list > .shop .shop__name')).map((h) => h.textContent ?? '');
}

function search(query: string): void {
  fireEvent.change(screen.getByLabelText('Town or postcode'), { target: { value: query } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}

beforeEach(() => {
  window.history.replaceState(null, '', '/shop-finder');
});

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('ShopFinder', () => {
  it("lists every shop in the page's order until a place is searched", () => {
    render(<ShopFinder {...shopFinderProps} />);
    expect(shopNames()).toEqual(['1Dublin Grafton Street', '2Leeds Briggate', '3London Covent Garden']);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(document.querySelectorAll('.shop__distance')).toHaveLength(0);
    expect(screen.getByRole('link', { name: '2: Leeds Briggate' }).getAttribute('href')).toBe('#shop-leeds-briggate');
  });

  it('orders by distance from a town, shows each distance and puts the query in the URL', () => {
    render(<ShopFinder {...shopFinderProps} />);
    search('Leeds');
    expect(shopNames()).toEqual(['1Leeds Briggate', '2London Covent Garden', '3Dublin Grafton Street']);
    const distances = Array.from(document.querySelectorAll('.shop__distance')).map((p) => p.textContent);
    expect(distances[0]).toBe('0.2 miles away');
    expect(distances[1]).toMatch(/^16\d miles away$/);
    expect(distances[2]).toMatch(/^1[89]\d miles away$/);
    expect(window.location.search).toBe('?q=Leeds');
    expect(screen.getByRole('status').textContent).toBe('Shops nearest Leeds, closest first. The nearest is Leeds Briggate, 0.2 miles away.');
    // The map's numbers follow the list, the nearest marked, the searched place crossed.
    expect(screen.getByRole('link', { name: '1: Leeds Briggate' }).getAttribute('class')).toContain('shop-map__marker--nearest');
    expect(screen.getByRole('link', { name: '3: Dublin Grafton Street' })).toBeTruthy();
    expect(document.querySelector('.shop-map__here')).not.toBeNull();
    expect(document.querySelector('.shop--nearest')?.id).toBe('shop-leeds-briggate');
  });

  it('finds a postcode by its district and Back returns to the previous search', () => {
    render(<ShopFinder {...shopFinderProps} />);
    search('Leeds');
    search('sw1a 1aa');
    expect(shopNames()[0]).toBe('1London Covent Garden');
    expect(screen.getByRole('status').textContent).toContain('Shops nearest SW1A 1AA');
    expect(new URLSearchParams(window.location.search).get('q')).toBe('sw1a 1aa');
    act(() => {
      window.history.back();
    });
    return vi.waitFor(() => {
      expect(shopNames()[0]).toBe('1Leeds Briggate');
      expect((screen.getByLabelText('Town or postcode') as HTMLInputElement).value).toBe('Leeds');
    });
  });

  it('searches the query in the URL when it loads', () => {
    window.history.replaceState(null, '', '/shop-finder?q=ls1');
    render(<ShopFinder {...shopFinderProps} />);
    expect(shopNames()[0]).toBe('1Leeds Briggate');
    expect((screen.getByLabelText('Town or postcode') as HTMLInputElement).value).toBe('ls1');
  });

  it('says so for an empty query and an unknown place, the list left as it was', () => {
    render(<ShopFinder {...shopFinderProps} />);
    search('   ');
    const field = screen.getByLabelText('Town or postcode');
    expect(screen.getByRole('alert').textContent).toBe('Please enter a town or postcode.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe('shop-finder-q-error');
    expect(window.location.search).toBe('');
    search('Atlantis');
    expect(screen.getByRole('alert').textContent).toBe("We couldn't find that place. Try a town or a postcode.");
    expect(shopNames()[0]).toBe('1Dublin Grafton Street');
    expect(document.querySelectorAll('.shop__distance')).toHaveLength(0);
    search('Dublin');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(shopNames()[0]).toBe('1Dublin Grafton Street');
  });

  it("ranks by the visitor's location, which stays out of the URL", () => {
    const getCurrentPosition = vi.fn((ok: PositionCallback) => ok({ coords: { latitude: 51.5, longitude: -0.12 } } as GeolocationPosition));
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    window.history.replaceState(null, '', '/shop-finder?q=Leeds');
    render(<ShopFinder {...shopFinderProps} />);
    fireEvent.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(shopNames()[0]).toBe('1London Covent Garden');
    expect(screen.getByRole('status').textContent).toContain('Shops nearest your location');
    expect(window.location.search).toBe('');
    vi.unstubAllGlobals();
  });

  it('says so when the location cannot be had', () => {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, fail: PositionErrorCallback) => fail({ code: 1 } as GeolocationPositionError));
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    render(<ShopFinder {...shopFinderProps} />);
    fireEvent.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByRole('alert').textContent).toBe("We couldn't get your location. Search by town or postcode instead.");
    vi.unstubAllGlobals();
  });

  it('says there are no shops when the export has none', () => {
    render(<ShopFinder {...noShopsProps} />);
    expect(screen.getByText('We have no shops to show at the moment.')).toBeTruthy();
    expect(screen.queryByRole('search')).toBeNull();
  });
});
