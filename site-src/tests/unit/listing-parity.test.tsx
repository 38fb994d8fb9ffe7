// The listing island's partial (templates/islands/listing.html, which prints cards with
// templates/macros/card.html) equals the React first render for the same props: category pages
// with and without facets, several pages, sale and hidden-price cards, many colours, and the
// search page's empty static state. Also the URL-state rules the island relies on.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Environment } from 'minijinja-js';
import { describe, expect, it } from 'vitest';
import Listing, { schema, type ListingProps } from '../../src/islands/listing';
import { ProductCard, type Card } from '../../src/lib/product-card';
import {
  EMPTY_STATE,
  listingQueryString,
  pageNumbers,
  parseListingUrl,
  toggleFilter,
} from '../../src/features/listing/url-state';
import { normaliseHtml } from '../../src/testing/normalise-html';
import { sized, srcset } from '../../src/lib/media';

const templates = resolve(dirname(fileURLToPath(import.meta.url)), '../../templates');

function environment(): Environment {
  const env = new Environment();
  // The generator's template functions (generator/src/render.rs), which write the same URLs.
  env.addGlobal('sized', sized);
  env.addGlobal('srcset', srcset);
  for (const name of ['macros/card.html', 'macros/price.html', 'islands/listing.html']) {
    env.addTemplate(name, readFileSync(resolve(templates, name), 'utf8'));
  }
  return env;
}

function card(id: number, overrides: Partial<Card> = {}): Card {
  const colours = ['Black', 'Navy Blue', 'Ecru'];
  return {
    id,
    name: `Satin Slip Midi Dress ${id}`,
    url: `/p/${id}/satin-slip-midi-dress/Black`,
    image: { src: `/media/${id}-1.svg`, alt: 'Front' },
    secondary_image: { src: `/media/${id}-2.svg`, alt: '' },
    badge: null,
    price_hidden: false,
    price: '£65.00',
    sale_price: null,
    percent_off: null,
    swatches: colours.map((label) => ({ label, swatch: '#1d1d1b', url: `/p/${id}/x/${label.replace(' ', '_')}`, image: `/media/${id}-${label}.svg` })),
    colour_count: 3,
    ...overrides,
  };
}

const manyColours = Array.from({ length: 11 }, (_, i) => ({ label: `Colour ${i}`, swatch: i % 2 ? null : '#abcdef', url: `/p/7/x/${i}`, image: `/media/7-${i}.svg` }));

const category: ListingProps = {
  kind: 'category',
  id: 10,
  market: 'uk',
  total: 300,
  page: 1,
  pages: 7,
  sort: 'featured',
  facets: {
    colours: [
      { label: 'Black', swatch: '#1d1d1b', count: 12 },
      { label: 'Blue & "Navy"', swatch: null, count: 0 },
    ],
    sizes: [
      { label: '8', count: 4 },
      { label: '10', count: 9 },
    ],
  },
  products: [
    card(1),
    card(2, { sale_price: '£45.00', percent_off: '30.76% off', badge: { name: 'Sale', text_colour: '#ffffff', background_colour: '#c8102e' } }),
    card(3, { price_hidden: true, secondary_image: null, badge: { name: 'New In', text_colour: '#fff', background_colour: '#1d1d1b' } }),
    card(4, { swatches: [], colour_count: 1, image: { src: '/media/fallback.svg', alt: '' } }),
    card(5),
    card(7, { swatches: manyColours, colour_count: 11 }),
  ],
};

const cases: Record<string, ListingProps> = {
  'category with facets and 7 pages': category,
  'collection without facets, one page': { ...category, kind: 'collection', total: 2, pages: 1, facets: { colours: [], sizes: [] }, products: category.products.slice(0, 2) },
  'empty category': { ...category, total: 0, pages: 1, facets: { colours: [], sizes: [] }, products: [] },
  'search page before the query is known': { kind: 'search', id: null, market: 'us', total: 0, page: 1, pages: 1, sort: 'relevance', facets: { colours: [], sizes: [] }, products: [] },
};

describe('listing island partial equals the component', () => {
  for (const [label, props] of Object.entries(cases)) {
    it(label, () => {
      expect(schema.safeParse(props).success).toBe(true);
      const fromTemplate = environment().renderTemplate('islands/listing.html', { props });
      const fromReact = renderToString(createElement(Listing, props));
      expect(normaliseHtml(fromTemplate, document)).toBe(normaliseHtml(fromReact, document));
    });
  }

  it('renders the spec copy for an empty filter panel and the search page', () => {
    const html = renderToString(createElement(Listing, cases['search page before the query is known']!));
    expect(html).toContain('Loading filters...');
    expect(renderToString(createElement(Listing, cases['empty category']!))).toContain('No filters are available now.');
  });

  it('product card: the macro and the component agree, card by card', () => {
    const env = environment();
    env.addTemplate('one-card.html', '{% from "macros/card.html" import card %}{{ card(c, 3, eager, priority) }}');
    for (const c of category.products) {
      for (const [eager, priority] of [[true, true], [true, false], [false, false]]) {
        const fromTemplate = env.renderTemplate('one-card.html', { c, eager, priority });
        const fromReact = renderToString(createElement(ProductCard, { card: c, eager, priority }));
        expect(normaliseHtml(fromTemplate, document)).toBe(normaliseHtml(fromReact, document));
      }
    }
  });

  it('card: +N counters per breakpoint limit and the sale price display', () => {
    const html = renderToString(createElement(ProductCard, { card: category.products[5]! }));
    for (const [limit, more] of [[3, 8], [4, 7], [6, 5], [8, 3], [9, 2]]) {
      expect(html).toContain(`card-swatches__more--${limit}" aria-hidden="true">+${more}<`);
    }
    const sale = renderToString(createElement(ProductCard, { card: category.products[1]! }));
    expect(sale).toContain('<s class="price__was">£65.00</s>');
    expect(sale).toContain('30.76% off');
    expect(renderToString(createElement(ProductCard, { card: category.products[2]! }))).not.toContain('price');
  });
});

describe('listing URL state', () => {
  it('reads filters, sort (field-direction or split) and page', () => {
    const state = parseListingUrl('?filters[Size]=10&filters[Color]=Black&filters[Size]=12&sort=price&direction=desc&page=3');
    expect(state).toEqual({ page: 3, sort: 'price-desc', query: null, colours: ['Black'], sizes: ['10', '12'], price: null });
    expect(parseListingUrl('?page=0&sort=cheapest').page).toBe(1);
    expect(parseListingUrl('?page=0&sort=cheapest').sort).toBeNull();
  });

  it('round-trips and writes nothing for the default state', () => {
    expect(listingQueryString(EMPTY_STATE)).toBe('');
    const state = parseListingUrl('?query=black+dress&filters[Color]=Navy+Blue&sort=newest&page=2');
    expect(parseListingUrl(listingQueryString(state))).toEqual(state);
  });

  it('a filter change drops the page', () => {
    const state = { ...EMPTY_STATE, page: 4 };
    expect(toggleFilter(state, 'sizes', '10')).toMatchObject({ page: 1, sizes: ['10'] });
    expect(toggleFilter({ ...state, sizes: ['10'] }, 'sizes', '10').sizes).toEqual([]);
  });

  it('page numbers: first, last and two either side', () => {
    expect(pageNumbers(1, 7)).toEqual([1, 2, 3, 7]);
    expect(pageNumbers(5, 12)).toEqual([1, 3, 4, 5, 6, 7, 12]);
    expect(pageNumbers(1, 1)).toEqual([1]);
  });
});
