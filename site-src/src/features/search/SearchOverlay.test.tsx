// The search overlay's rules: 200 ms debounce, ≤ 5 suggestions and ≤ 10 products, the no-results
// message only above 3 characters, and no navigation for a blank term (fetch stubbed at the network).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBrowserState } from '../../testing/setup-dom';
import SearchOverlay, { NO_RESULTS, searchHref } from './SearchOverlay';

const product = (id: number) => ({ id, sku: `S${id}`, name: `Dress ${id}`, url: `/p/${id}/dress/Red`, image_url: null, original_price: 50, sale_price: null, colour: 'Red', variation_id: id });

async function type(value: string, wait = 200): Promise<void> {
  fireEvent.change(screen.getByRole('searchbox'), { target: { value } });
  await act(async () => {
    vi.advanceTimersByTime(wait);
  });
}

describe('SearchOverlay', () => {
  let answer: unknown;
  beforeEach(() => {
    vi.useFakeTimers();
    answer = { products: Array.from({ length: 12 }, (_, i) => product(i + 1)), suggestions: ['a', 'b', 'c', 'd', 'e', 'f'] };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(answer), { status: 200 })));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    resetBrowserState();
  });

  it('waits 200 ms after the last keystroke, then shows ≤ 5 chips and ≤ 10 products without price', async () => {
    render(<SearchOverlay />);
    await type('dre', 199);
    await type('dress', 199);
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/search?query=dress&market=uk');
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Popular Searches' })).toBeTruthy();
    expect(screen.getAllByRole('button').filter((b) => /^[a-f]$/.test(b.textContent ?? ''))).toHaveLength(5);
    expect(screen.getAllByRole('link').filter((a) => a.textContent?.startsWith('Dress'))).toHaveLength(10);
    expect(document.body.textContent).not.toMatch(/50/);
  });

  it('shows the no-results message only above 3 characters', async () => {
    answer = { products: [], suggestions: [] };
    render(<SearchOverlay />);
    await type('abc');
    await act(async () => {});
    expect(screen.queryByText(NO_RESULTS)).toBeNull();
    await type('abcd');
    await act(async () => {});
    expect(screen.getByText(NO_RESULTS)).toBeTruthy();
  });

  it('does not navigate for an empty or blank term', () => {
    expect(searchHref('', '   ')).toBeNull();
    expect(searchHref('/eu', ' red dress ')).toBe('/eu/search?query=red%20dress');
  });
});
