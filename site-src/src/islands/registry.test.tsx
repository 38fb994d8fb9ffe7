// Island registry: names, hydration with props, unknown islands, bad props, mismatches.
import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { productOptionsFixtures, islandHtml } from '../testing/fixtures';
import { resetBrowserState } from '../testing/setup-dom';
import HeaderActions from './header-actions';
import { kebabName, islandLoader } from './modules';
import ProductOptions from './product-options';
import { startIslands } from './registry';
import { store } from '../lib/store';

afterEach(resetBrowserState);

function page(html: string): void {
  document.body.innerHTML = html;
}

describe('island registry', () => {
  it('maps PascalCase names to kebab-case files', () => {
    expect(kebabName('HeaderActions')).toBe('header-actions');
    expect(kebabName('PdpGallery')).toBe('pdp-gallery');
    expect(kebabName('BagSidebar2')).toBe('bag-sidebar2');
    expect(islandLoader('HeaderActions')).toBeTypeOf('function');
    expect(islandLoader('ProductOptions')).toBeTypeOf('function');
    expect(islandLoader('header-actions')).toBeUndefined();
    expect(islandLoader('Nope')).toBeUndefined();
  });

  it('hydrates each island with its own component and props', async () => {
    const errors = vi.spyOn(console, 'error');
    const options = productOptionsFixtures.oneSize!;
    page(
      islandHtml('HeaderActions', 'i0', renderToString(<HeaderActions prefix="/eu" />), { prefix: '/eu' }) +
        islandHtml('ProductOptions', 'i1', renderToString(<ProductOptions {...options} />), options, 'load'),
    );
    const header = document.querySelector('[data-island-id="i0"]')!;
    const headerInner = header.firstElementChild;
    await Promise.all(startIslands(document));

    expect(header.getAttribute('data-hydrated')).toBe('true');
    expect(document.querySelector('[data-island-id="i1"]')!.getAttribute('data-hydrated')).toBe('true');
    // Hydrated, not re-rendered: React adopted the server DOM and then follows the shared store.
    expect(header.firstElementChild).toBe(headerInner);
    act(() => store.getState().setSignedIn(true));
    await vi.waitFor(() =>
      expect(header.querySelector('.header-action--account')!.getAttribute('aria-label')).toBe('My account'),
    );
    expect(header.querySelector('.header-action--account')!.getAttribute('href')).toBe('/eu/my-account');
    expect(errors).not.toHaveBeenCalled();
  });

  it('logs an unknown island and leaves its markup alone', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page(islandHtml('NoSuchThing', 'i0', '<p>static</p>', {}, 'load'));
    await Promise.all(startIslands(document));
    const el = document.querySelector('[data-island]')!;
    expect(el.getAttribute('data-hydrated')).toBe('false');
    expect(el.innerHTML).toBe('<p>static</p>');
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('NoSuchThing: unknown island'));
  });

  it('logs props that do not match the schema, or are missing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    page(
      islandHtml('HeaderActions', 'i0', '', { prefix: '/fr' }) +
        '<div data-island="HeaderActions" data-island-id="i1"></div>',
    );
    await Promise.all(startIslands(document));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('HeaderActions: props not in schema'), expect.anything());
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("no props i1"));
    for (const el of document.querySelectorAll('[data-island]')) expect(el.getAttribute('data-hydrated')).toBe('false');
  });

  it('reports hydration mismatches through console.error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const wrong = renderToString(<HeaderActions prefix="/us" />).replace('<ul', '<ol').replace('</ul>', '</ol>');
    page(islandHtml('HeaderActions', 'i0', wrong, { prefix: '/us' }));
    await Promise.all(startIslands(document));
    expect(errors.mock.calls.some((call) => String(call[0]).includes('hydration error'))).toBe(true);
  });

  it('does not hydrate the same island twice', async () => {
    page(islandHtml('HeaderActions', 'i0', renderToString(<HeaderActions prefix="" />), { prefix: '' }));
    expect(startIslands(document)).toHaveLength(1);
    expect(startIslands(document)).toHaveLength(0);
  });
});
