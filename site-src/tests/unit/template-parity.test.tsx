// Each island partial (templates/islands/*.html, rendered with MiniJinja) equals its component's
// server render for the fixture props: the static markup the generator writes will hydrate cleanly.
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { islandFileNames } from '../../src/islands/modules';
import HeaderActions, { schema as headerSchema } from '../../src/islands/header-actions';
import ProductOptions, { schema as optionsSchema } from '../../src/islands/product-options';
import ProductActions, { schema as actionsSchema } from '../../src/islands/product-actions';
import ShopperShell from '../../src/islands/shopper-shell';
import ShopperScreen from '../../src/islands/shopper-screen';
import ShopFinder, { schema as shopFinderSchema } from '../../src/islands/shop-finder';
import { noShopsProps, shopFinderProps } from '../../src/testing/shop-finder-fixtures';
import { headerActionsFixtures, productActionsFixtures, productOptionsFixtures } from '../../src/testing/fixtures';
import { normaliseHtml } from '../../src/testing/normalise-html';
import { renderIslandTemplate } from '../../src/testing/render-template';

function expectParity<P extends object>(kebab: string, component: ComponentType<P>, props: P): void {
  const fromTemplate = renderIslandTemplate(kebab, props);
  const fromReact = renderToString(createElement(component, props));
  expect(normaliseHtml(fromTemplate, document)).toBe(normaliseHtml(fromReact, document));
}

describe('island templates match their components', () => {
  it('has a partial for every island', () => {
    const names = islandFileNames();
    expect(names).toEqual(expect.arrayContaining(['header-actions', 'product-options']));
    for (const name of names) {
      expect(() => renderIslandTemplate(name, headerActionsFixtures.uk)).not.toThrow(/ENOENT/);
    }
  });

  for (const [label, props] of Object.entries(headerActionsFixtures)) {
    it(`HeaderActions (${label})`, () => {
      expect(headerSchema.safeParse(props).success).toBe(true);
      expectParity('header-actions', HeaderActions, props);
    });
  }

  for (const [label, props] of Object.entries(productOptionsFixtures)) {
    it(`ProductOptions (${label})`, () => {
      expect(optionsSchema.safeParse(props).success).toBe(true);
      expectParity('product-options', ProductOptions, props);
    });
  }

  for (const [label, props] of Object.entries(productActionsFixtures)) {
    it(`ProductActions (${label})`, () => {
      expect(actionsSchema.safeParse(props).success).toBe(true);
      expectParity('product-actions', ProductActions, props);
    });
  }

  for (const prefix of ['', '/us'] as const) {
    it(`ShopperShell (${prefix || 'uk'})`, () => expectParity('shopper-shell', ShopperShell, { prefix }));
    it(`ShopperScreen (${prefix || 'uk'})`, () => expectParity('shopper-screen', ShopperScreen, { screen: 'login', prefix }));
  }

  for (const [label, props] of Object.entries({ 'three shops': shopFinderProps, 'no shops': noShopsProps })) {
    it(`ShopFinder (${label})`, () => {
      expect(shopFinderSchema.safeParse(props).success).toBe(true);
      expectParity('shop-finder', ShopFinder, props);
    });
  }

  it('catches a template that differs', () => {
    const wrong = renderIslandTemplate('header-actions', { prefix: '/us' }).replace('Sign in', 'Log in');
    const right = renderToString(createElement(HeaderActions, { prefix: '/us' }));
    expect(normaliseHtml(wrong, document)).not.toBe(normaliseHtml(right, document));
  });

  it('catches one text node where React renders two', () => {
    const split = renderToString(createElement('p', null, 'a', 'b'));
    expect(split).toContain('<!-- -->');
    expect(normaliseHtml('<p>ab</p>', document)).not.toBe(normaliseHtml(split, document));
  });
});
