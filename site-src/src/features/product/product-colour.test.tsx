// The product page's colour change and its stock marks on options: ProductOptions and
// ProductActions mounted in a product page's markup, the colourway's static page and the stock
// answer served through fetch (the network boundary). A colour click swaps gallery, badges and
// details in place, hands the new props to both islands, pushes the colourway's URL, and back
// restores the first colour.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../lib/store';
import { productActionsFixtures, productOptionsFixtures } from '../../testing/fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import ProductActions, { type ProductActionsProps } from './product-actions';
import ProductOptions, { type ProductOptionsProps } from './product-options';

const navyOptions = productOptionsFixtures.dress!;
const navyActions = productActionsFixtures.dress!;
const roseOptions: ProductOptionsProps = {
  ...navyOptions,
  colours: navyOptions.colours.map((c) => ({ ...c, selected: c.label === 'Rose & Ivory' })),
  // The rose colourway comes in size 8, Petite only.
  sizes: [{ id: 10, label: '8' }],
  lengths: [{ id: 20, label: 'Petite' }],
  colourValueId: 8,
};
const roseActions: ProductActionsProps = { ...navyActions, colour: 'Rose & Ivory', price: '£70.00', salePrice: null, image: '/media/rose-1.jpg' };

/** A product page's markup for one colourway, as the generator writes it (islands as holders). */
function pageMarkup(colour: string, image: string, badge: string, fabric: string): string {
  return `<div class="pdp" data-product-id="1201">
<div class="pdp__gallery gallery" data-gallery><ul class="gallery__track"><li><img class="gallery__media" src="${image}" alt="Wrap Dress in ${colour}"></li></ul></div>
<div class="pdp__info"><ul class="badges pdp__badges"><li><span class="badge">${badge}</span></li></ul>
<h1 class="pdp__name">Wrap Dress</h1>
<div class="pdp__options"><div data-island="ProductOptions" data-island-id="i3"></div></div>
<div class="pdp-actions" data-product-actions><div data-island="ProductActions" data-island-id="i4"></div></div>
<dl class="pdp-specs"><dt>Fabric</dt><dd>${fabric}</dd></dl></div></div>`;
}

function staticPage(colour: string, image: string, badge: string, fabric: string, options: ProductOptionsProps, actions: ProductActionsProps): string {
  return `<!doctype html><html><head><title>Wrap Dress in ${colour.replace('&', '&amp;')} | Store</title></head><body>
${pageMarkup(colour, image, badge, fabric)}
<script type="application/json" data-island-props="i3">${JSON.stringify(options)}</script>
<script type="application/json" data-island-props="i4">${JSON.stringify(actions)}</script>
</body></html>`;
}
const pages: Record<string, string> = {
  '/p/wrap-dress-rose': staticPage('Rose & Ivory', '/media/rose-1.jpg', 'New in', 'Rose crepe', roseOptions, roseActions),
  '/p/wrap-dress-navy': staticPage('Navy', '/media/navy-1.jpg', 'Sale', 'Navy jersey', navyOptions, navyActions),
};

const STOCK = { 5001: 0, 5002: 3, 5003: 0, 5004: 0, 5005: 2, 5006: 0, 5101: 4, 5201: 0 };

function serve(url: string): Response {
  if (url.includes('/stock/products/1201')) {
    const variants = Object.entries(STOCK).map(([id, n]) => ({ variant_id: Number(id), available_to_sell: n }));
    return new Response(JSON.stringify({ variants }), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  const page = pages[url];
  if (page !== undefined) return new Response(page, { status: 200, headers: { 'content-type': 'text/html' } });
  return new Response('not found', { status: 404 });
}

/** The radio's accessible note (its aria-describedby text), or null when it has none. */
function noteOf(label: string): string | null {
  const id = (screen.getByRole('radio', { name: label }) as HTMLInputElement).getAttribute('aria-describedby');
  return id === null ? null : (document.getElementById(id)?.textContent ?? null);
}

describe('colour change on the product page', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (input: RequestInfo | URL) => serve(String(input)));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetBrowserState();
  });

  it('swaps media, badges, details and island props in place, pushes the URL, and back restores it', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/p/wrap-dress-navy');
    document.title = 'Wrap Dress in Navy | Store';
    document.body.innerHTML = pageMarkup('Navy', '/media/navy-1.jpg', 'Sale', 'Navy jersey');
    const optionsHolder = document.querySelector('[data-island="ProductOptions"]') as HTMLElement;
    const actionsHolder = document.querySelector('[data-island="ProductActions"]') as HTMLElement;
    render(<ProductOptions {...navyOptions} />, { container: optionsHolder });
    render(<ProductActions {...navyActions} />, { container: actionsHolder });
    await waitFor(() => expect(noteOf('10')).toBe('Sold out'));
    // A colour none of whose variants has stock is marked; the others are not.
    expect(screen.getByRole('link', { name: 'Print (sold out)' }).className).toContain('swatch--sold-out');
    expect(screen.getByRole('link', { name: 'Navy' }).className).not.toContain('swatch--sold-out');
    expect(screen.getByRole('link', { name: 'Rose & Ivory' }).className).not.toContain('swatch--sold-out');

    await user.click(screen.getByRole('radio', { name: '8' }));
    const historyBefore = window.history.length;
    await user.click(screen.getByRole('link', { name: 'Rose & Ivory' }));

    await waitFor(() => expect(screen.getByRole('group', { name: 'Colour: Rose & Ivory' })).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledWith('/p/wrap-dress-rose', expect.anything());
    expect(window.location.pathname).toBe('/p/wrap-dress-rose');
    // Size 8 carried over; the rose colourway's sole length is chosen for the shopper.
    expect(new URLSearchParams(window.location.search).get('Size')).toBe('8');
    expect(new URLSearchParams(window.location.search).get('Length')).toBe('Petite');
    expect(window.history.length).toBe(historyBefore + 1);
    expect((document.querySelector('.gallery__media') as HTMLImageElement).getAttribute('src')).toBe('/media/rose-1.jpg');
    expect(document.querySelector('.pdp__badges')?.textContent).toBe('New in');
    expect(document.querySelector('.pdp-specs dd')?.textContent).toBe('Rose crepe');
    expect(document.title).toBe('Wrap Dress in Rose & Ivory | Store');
    // The islands' own nodes were kept (React still owns them), in their places.
    expect(document.querySelector('[data-island="ProductOptions"]')).toBe(optionsHolder);
    expect(document.querySelector('[data-island="ProductActions"]')).toBe(actionsHolder);
    expect(Array.from(document.querySelector('.pdp__info')!.children).map((el) => el.className)).toEqual([
      'badges pdp__badges',
      'pdp__name',
      'pdp__options',
      'pdp-actions',
      'pdp-specs',
    ]);
    expect(screen.queryByRole('radio', { name: '10' })).toBeNull();
    expect(store.getState().colourway[1201]?.actions.colour).toBe('Rose & Ivory');
    expect(store.getState().selection[1201]).toMatchObject({ variantId: 5101, sizeLabel: '8', lengthLabel: 'Petite' });
    expect(screen.getByRole('button', { name: 'Add to bag' })).toHaveProperty('disabled', false);

    await act(async () => {
      window.history.back();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // Back on the navy page's URL: navy is shown again (its page fetched like any colourway), with
    // the choice that entry's query holds (Size=8, written there before the colour change).
    await waitFor(() => expect(screen.getByRole('group', { name: 'Colour: Navy' })).toBeTruthy());
    expect(window.location.pathname).toBe('/p/wrap-dress-navy');
    expect((document.querySelector('.gallery__media') as HTMLImageElement).getAttribute('src')).toBe('/media/navy-1.jpg');
    expect(document.querySelector('.pdp-specs dd')?.textContent).toBe('Navy jersey');
    expect(store.getState().colourway[1201]?.actions.colour).toBe('Navy');
    expect(window.location.search).toBe('?Size=8');
    expect((screen.getByRole('radio', { name: '8' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: '10' })).toBeTruthy();
  });

  it('falls back to an ordinary page load when the colourway page cannot be read', async () => {
    const { showColourway } = await import('./product-options-live');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: 'http://localhost/p/wrap-dress-navy', assign });
    document.body.innerHTML = pageMarkup('Navy', '/media/navy-1.jpg', 'Sale', 'Navy jersey');
    await showColourway(1201, 'http://localhost/p/wrap-dress-print', true);
    expect(assign).toHaveBeenCalledWith('http://localhost/p/wrap-dress-print');
    expect(document.querySelector('.pdp-specs dd')?.textContent).toBe('Navy jersey');
  });
});

describe('§4 marks on sizes and lengths', () => {
  afterEach(resetBrowserState);

  it('shows nothing until live stock is known, then marks sold-out and unavailable values, which stay selectable', async () => {
    const user = userEvent.setup();
    // No navy 12 / Regular variant: that combination is unavailable (availability null).
    const props = { ...navyOptions, variants: navyOptions.variants.filter((v) => v.id !== 5006) };
    render(<ProductOptions {...props} />);
    await waitFor(() => expect(store.getState().selection[1201]).toBeDefined());
    expect(noteOf('10')).toBeNull();
    expect(document.querySelector('.option--sold-out')).toBeNull();

    act(() => store.getState().setStock(1201, STOCK));
    // No length chosen: each size sums its lengths (8: 0 + 3, 10: 0 + 0, 12: 2).
    await waitFor(() => expect(noteOf('10')).toBe('Sold out'));
    expect(noteOf('8')).toBeNull();
    expect(noteOf('12')).toBeNull();
    expect(noteOf('Petite')).toBeNull();
    expect(screen.getByRole('radio', { name: '10' }).closest('.option')?.className).toBe('option option--sold-out');

    // Still selectable (notify-me); the lengths are now counted for size 10 only.
    await user.click(screen.getByRole('radio', { name: '10' }));
    expect((screen.getByRole('radio', { name: '10' }) as HTMLInputElement).checked).toBe(true);
    expect(noteOf('Petite')).toBe('Sold out');
    expect(noteOf('Regular')).toBe('Sold out');

    await user.click(screen.getByRole('radio', { name: 'Regular' }));
    expect(noteOf('8')).toBeNull();
    expect(noteOf('12')).toBe('Unavailable');
  });
});
