// Each block island's partial (templates/islands/*.html, rendered with MiniJinja) equals its
// component's server render for fixture props, and the props pass the component's schema: the
// static markup hydrates without a mismatch.
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { islandLoader } from '../../src/islands/modules';
import { normaliseHtml } from '../../src/testing/normalise-html';
import { renderIsland } from './render-island';
import * as f from './fixtures';

const cases: [string, string, unknown][] = [
  ['BenefitBar', 'rotating', f.benefitBar],
  ['BenefitBar', 'single item, no colours', f.benefitBarSingle],
  ['Countdown', 'window', f.countdown],
  ['Accordion', 'with heading', f.accordion],
  ['Accordion', 'without heading', { ...f.accordion, heading: null }],
  ['FooterColumns', 'closed', f.footerColumns],
  ['FooterColumns', 'open, multiple', { ...f.footerColumns, open: true, multiple: true }],
  ['MegaMenu', 'groups and jump-off', f.megaMenu],
  ['MobileMenu', 'three layers', f.mobileMenu],
  ['MobileMenu', 'with its own shop finder', { ...f.mobileMenu, prefix: '/eu', items: [...f.menuItems, { title: 'Shop Finder', url: '/eu/shop-finder', children: [] }] }],
  ['MobileMenuTwo', 'categories', f.mobileMenu],
  ['MobileMenuTwo', 'capped categories', { ...f.mobileMenu, maxCategories: 1 }],
  ['Carousel', 'three cards', f.carousel],
  ['Carousel', 'untitled, one card', { ...f.carousel, title: null, backgroundColour: null, cards: f.carousel.cards.slice(0, 1) }],
  ['Sticker', 'image and lines', f.sticker],
  ['Sticker', 'template only', { ...f.sticker, url: null, image: null, closeButton: null, backgroundColour: null, textLines: [] }],
  ['AnimatedTextBanner', 'linked', f.animatedTextBanner],
  ['AnimatedTextBanner', 'plain', { ...f.animatedTextBanner, link: null, ctaText: null, textFont: null, textColour: null, backgroundColour: null, dividers: false }],
  ['PromoClicks', 'marker', {}],
];

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i > 0 ? '-' : '') + c.toLowerCase());

describe('block island partials equal their components’ first render', () => {
  for (const [name, label, props] of cases) {
    it(`${name} (${label})`, async () => {
      const loader = islandLoader(name);
      expect(loader, `no island ${name}`).toBeDefined();
      const mod = await loader!();
      const parsed = mod.schema?.safeParse(props);
      expect(parsed?.success, JSON.stringify(parsed)).toBe(true);
      const component = mod.default as ComponentType<object>;
      const fromReact = renderToString(createElement(component, props as object));
      const fromTemplate = renderIsland(kebab(name), props);
      expect(normaliseHtml(fromTemplate, document)).toBe(normaliseHtml(fromReact, document));
    });
  }
});
