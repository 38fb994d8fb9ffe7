// A card under a colour filter shows the matching colourway: picture, link and swatch chosen; its
// pictures come at the media host's card widths.
import { cleanup, fireEvent, render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { cardForColours, ProductCard, type Card } from './product-card';

const card: Card = {
  id: 7,
  name: 'Linen Shirt',
  url: '/p/7/linen-shirt/Ecru',
  image: { src: '/media/7-ecru-1.jpg', alt: 'Front' },
  secondary_image: { src: '/media/7-ecru-2.jpg', alt: 'Back' },
  badge: null,
  price_hidden: false,
  price: '£40.00',
  sale_price: null,
  percent_off: null,
  swatches: [
    { label: 'Black', swatch: '#000000', url: '/p/7/linen-shirt/Black', image: '/media/7-black-1.jpg' },
    { label: 'Ecru', swatch: '#f0ead6', url: '/p/7/linen-shirt/Ecru', image: '/media/7-ecru-1.jpg' },
    { label: 'Sage', swatch: '#9caf88', url: '/p/7/linen-shirt/Sage', image: '/media/7-sage-1.jpg' },
  ],
  colour_count: 3,
};

describe('cardForColours', () => {
  it('leaves the card alone without a colour filter or without a matching colourway', () => {
    expect(cardForColours(card, [])).toEqual({ card, selected: null });
    expect(cardForColours(card, ['Red'])).toEqual({ card, selected: null });
  });

  it('shows the first chosen colourway: its picture and link, no other colour on hover, its swatch first', () => {
    const { card: shown, selected } = cardForColours(card, ['Red', 'Sage', 'Black']);
    expect(selected?.label).toBe('Black');
    expect(shown.url).toBe('/p/7/linen-shirt/Black');
    expect(shown.image).toEqual({ src: '/media/7-black-1.jpg', alt: 'Linen Shirt, Black' });
    expect(shown.secondary_image).toBeNull();
    expect(shown.swatches.map((s) => s.label)).toEqual(['Black', 'Ecru', 'Sage']);

    const sage = cardForColours(card, ['Sage']).card;
    expect(sage.swatches.map((s) => s.label)).toEqual(['Sage', 'Black', 'Ecru']);
  });

  it('keeps the card picture and its hover picture when the chosen colourway is the default one', () => {
    const { card: shown, selected } = cardForColours(card, ['Ecru']);
    expect(selected?.label).toBe('Ecru');
    expect(shown.image).toEqual(card.image);
    expect(shown.secondary_image).toEqual(card.secondary_image);
    expect(shown.swatches[0]?.label).toBe('Ecru');
  });

  it('renders the chosen swatch as current, and no swatch as current without a filter', () => {
    const html = renderToStaticMarkup(<ProductCard card={card} colours={['Sage']} />);
    expect(html).toContain('src="/media/7-sage-1.jpg"');
    expect(html).toContain('href="/p/7/linen-shirt/Sage" title="Sage" aria-current="true"');
    expect(html.match(/aria-current/g)).toHaveLength(1);
    expect(renderToStaticMarkup(<ProductCard card={card} />)).not.toContain('aria-current');
  });
});

describe('card pictures at the media host widths', () => {
  afterEach(cleanup);
  const w = (url: string, width: number) => `${url}?w=${width}&fmt=auto&qlt=default`;

  it('offers the card picture at 415 and 768, the hover picture at 992', () => {
    const { container } = render(<ProductCard card={card} />);
    const [main, hover] = container.querySelectorAll<HTMLImageElement>('.card__image');
    expect(main?.getAttribute('srcset')).toBe(`${w('/media/7-ecru-1.jpg', 415)} 415w, ${w('/media/7-ecru-1.jpg', 768)} 768w`);
    expect(main?.getAttribute('sizes')).toBe('(min-width: 992px) 25vw, (min-width: 768px) 33vw, 50vw');
    expect(hover?.getAttribute('src')).toBe(w('/media/7-ecru-2.jpg', 992));
    expect(hover?.hasAttribute('srcset')).toBe(false);
  });

  it('swaps the whole srcset, not only src, while a swatch is hovered', () => {
    const { container, getByTitle } = render(<ProductCard card={card} />);
    const main = container.querySelector<HTMLImageElement>('.card__image')!;
    fireEvent.mouseEnter(getByTitle('Sage'));
    expect(main.getAttribute('src')).toBe('/media/7-sage-1.jpg');
    expect(main.getAttribute('srcset')).toContain(`${w('/media/7-sage-1.jpg', 768)} 768w`);
    expect(main.getAttribute('srcset')).not.toContain('ecru');
    fireEvent.mouseLeave(getByTitle('Sage'));
    expect(main.getAttribute('srcset')).toContain('7-ecru-1.jpg');
  });

  it('draws a swatch without a colour with its colourway picture, 68 px wide', () => {
    const patterned = { ...card, swatches: card.swatches.map((s) => (s.label === 'Sage' ? { ...s, swatch: null } : s)) };
    const { container } = render(<ProductCard card={patterned} />);
    const images = container.querySelectorAll('.card-swatch__image');
    expect(images).toHaveLength(1);
    expect(images[0]?.getAttribute('src')).toBe(w('/media/7-sage-1.jpg', 68));
  });
});
