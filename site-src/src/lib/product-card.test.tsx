// A card under a colour filter shows the matching colourway: picture, link and swatch chosen.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
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
