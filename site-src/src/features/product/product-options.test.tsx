// Product options (the ProductOptions island's component): size/length choice (sole size, URL in
// and out), swatches, gift-card designs.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { selectedVariantId, store } from '../../lib/store';
import { productOptionsFixtures } from '../../testing/fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import ProductOptions from './product-options';

const { dress, oneSize, giftCard } = productOptionsFixtures as Required<typeof productOptionsFixtures>;

afterEach(resetBrowserState);

function radio(name: string): HTMLInputElement {
  return screen.getByRole('radio', { name }) as HTMLInputElement;
}

describe('ProductOptions', () => {
  it('auto-selects a sole size and publishes its variant', async () => {
    render(<ProductOptions {...oneSize!} />);
    expect(radio('One Size').checked).toBe(true);
    await waitFor(() => expect(selectedVariantId(oneSize!.productId)).toBe(6001));
    expect(store.getState().selection[oneSize!.productId]?.purchasable).toBe(true);
  });

  it('selects nothing when there are several sizes and no query', async () => {
    render(<ProductOptions {...dress!} />);
    for (const label of ['8', '10', '12', 'Petite', 'Regular']) expect(radio(label).checked).toBe(false);
    await waitFor(() => expect(store.getState().selection[dress!.productId]).toBeDefined());
    expect(selectedVariantId(dress!.productId)).toBeNull();
  });

  it('takes Size and Length from the URL', async () => {
    window.history.replaceState(null, '', '/p/wrap-dress-navy?Size=10&Length=Petite&utm_source=x');
    render(<ProductOptions {...dress!} />);
    await waitFor(() => expect(radio('10').checked).toBe(true));
    expect(radio('Petite').checked).toBe(true);
    expect(radio('8').checked).toBe(false);
    expect(store.getState().selection[dress!.productId]).toMatchObject({
      sizeId: 11,
      lengthId: 20,
      variantId: 5003,
      purchasable: false,
      sizeLabel: '10',
      lengthLabel: 'Petite',
      needSize: true,
      needLength: true,
    });
  });

  it('ignores an unknown size in the URL', async () => {
    window.history.replaceState(null, '', '/p/wrap-dress-navy?Size=99');
    render(<ProductOptions {...dress!} />);
    await waitFor(() => expect(store.getState().selection[dress!.productId]).toBeDefined());
    expect(screen.getAllByRole('radio').some((r) => (r as HTMLInputElement).checked)).toBe(false);
  });

  it('writes the choice to the URL, keeping other parameters', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/p/wrap-dress-navy?utm_source=x');
    render(<ProductOptions {...dress!} />);
    await user.click(radio('12'));
    expect(radio('12').checked).toBe(true);
    let query = new URLSearchParams(window.location.search);
    expect(query.get('Size')).toBe('12');
    expect(query.get('utm_source')).toBe('x');
    expect(query.has('Length')).toBe(false);
    expect(selectedVariantId(dress!.productId)).toBeNull();

    await user.click(radio('Regular'));
    query = new URLSearchParams(window.location.search);
    expect(query.get('Size')).toBe('12');
    expect(query.get('Length')).toBe('Regular');
    expect(window.location.pathname).toBe('/p/wrap-dress-navy');
    expect(selectedVariantId(dress!.productId)).toBe(5006);
  });

  it('renders colour swatches as links, the current one marked', async () => {
    const user = userEvent.setup();
    render(<ProductOptions {...dress!} />);
    expect(screen.getByRole('group', { name: 'Colour: Navy' })).toBeTruthy();
    const navy = screen.getByRole('link', { name: 'Navy' });
    expect(navy.getAttribute('aria-current')).toBe('page');
    expect(navy.getAttribute('href')).toBe('/p/wrap-dress-navy');
    const rose = screen.getByRole('link', { name: 'Rose & Ivory' });
    expect(rose.getAttribute('aria-current')).toBeNull();
    expect((rose.querySelector('.swatch__chip') as HTMLElement).style.backgroundColor).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Print' }).querySelector('.swatch__chip')).toBeNull();
    expect(screen.getByRole('link', { name: 'Size guide' }).getAttribute('href')).toBe('/size-guide');

    // After a choice, switching colour keeps the size and length.
    await user.click(radio('8'));
    expect(rose.getAttribute('href')).toBe('/p/wrap-dress-rose?Size=8');
  });

  it('labels gift card designs and shows no size guide', () => {
    render(<ProductOptions {...giftCard!} />);
    expect(screen.getByRole('group', { name: 'Design' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Size guide' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Length' })).toBeNull();
  });
});
