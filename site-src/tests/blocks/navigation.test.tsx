// State rules of the navigation islands: mobile menu variant one (three layers, Back, closing on
// links and route changes, reset 500 ms after close, preview route), variant two (at most 12
// categories, sections reset with the first expanded), the desktop mega menu (hover, click,
// keyboard) and their dataLayer pushes.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import MegaMenu from '../../src/features/blocks/mega-menu';
import MobileMenu, { nodesOnPath } from '../../src/features/blocks/mobile-menu';
import MobileMenuTwo, { categoriesOf } from '../../src/features/blocks/mobile-menu-two';
import { megaMenu, menuItems, mobileMenu } from './fixtures';

beforeEach(() => {
  window.dataLayer = [];
  window.history.replaceState(null, '', '/');
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

/** Opens a <details> the way a click on its summary does, and lets React see the toggle event. */
function setOpen(details: HTMLDetailsElement, open: boolean): void {
  act(() => {
    details.open = open;
    details.dispatchEvent(new Event('toggle'));
  });
}

const layers = (container: HTMLElement): HTMLElement[] => Array.from(container.querySelectorAll<HTMLElement>('.mnav__layer'));
const depth = (container: HTMLElement): string =>
  (container.querySelector('.mnav__layers') as HTMLElement).style.getPropertyValue('--mnav-depth');

describe('mobile menu, variant one', () => {
  it('walks three layers and back', () => {
    const { container } = render(<MobileMenu {...mobileMenu} />);
    const details = container.querySelector('details') as HTMLDetailsElement;
    setOpen(details, true);
    expect(details.open).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Womens' }));
    expect(layers(container)).toHaveLength(2);
    expect(depth(container)).toBe('1');
    expect(within(layers(container)[1]!).getByRole('link', { name: 'Shop all Womens' }).getAttribute('href')).toBe('/browse/womens');
    expect(within(layers(container)[1]!).getByRole('img', { name: 'Womens' }).getAttribute('src')).toBe('/media/nav-womens.svg');
    fireEvent.click(screen.getByRole('button', { name: 'Clothing' }));
    expect(layers(container)).toHaveLength(3);
    // The third layer is the last: an item with children there is a link.
    expect(within(layers(container)[2]!).getByRole('link', { name: 'Dresses' }).getAttribute('href')).toBe('/browse/womens/clothing/dresses');
    expect(window.dataLayer?.map((e) => e.navigation_element)).toEqual(['Womens', 'Womens > Clothing']);
    expect(window.dataLayer?.[0]?.event).toBe('menu_item');
    fireEvent.click(within(layers(container)[2]!).getByRole('button', { name: 'Back' }));
    expect(layers(container)).toHaveLength(2);
    fireEvent.click(within(layers(container)[1]!).getByRole('button', { name: 'Back' }));
    expect(layers(container)).toHaveLength(1);
    expect(depth(container)).toBe('0');
  });

  it('closes on a link click and resets its layers 500 ms after closing', () => {
    vi.useFakeTimers();
    const { container } = render(<MobileMenu {...mobileMenu} />);
    const details = container.querySelector('details') as HTMLDetailsElement;
    setOpen(details, true);
    fireEvent.click(screen.getByRole('button', { name: 'Mens' }));
    fireEvent.click(screen.getByRole('button', { name: 'Coats' }));
    const link = screen.getByRole('link', { name: 'Parkas' });
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link);
    expect(details.open).toBe(false);
    expect(window.dataLayer?.at(-1)).toMatchObject({ event: 'navigation_click', navigation_element: 'Mens > Coats > Parkas' });
    expect(layers(container)).toHaveLength(3);
    act(() => vi.advanceTimersByTime(499));
    expect(layers(container)).toHaveLength(3);
    act(() => vi.advanceTimersByTime(1));
    expect(layers(container)).toHaveLength(1);
  });

  it('closes on a route change and opens for the #mobile-menu link', () => {
    const { container } = render(<MobileMenu {...mobileMenu} />);
    const details = container.querySelector('details') as HTMLDetailsElement;
    act(() => {
      window.history.replaceState(null, '', '/#mobile-menu');
      window.dispatchEvent(new Event('hashchange'));
    });
    expect(details.open).toBe(true);
    act(() => {
      window.history.pushState(null, '', '/about-us');
      window.dispatchEvent(new Event('popstate'));
    });
    expect(details.open).toBe(false);
  });

  it('stays closed on the preview route', () => {
    window.history.replaceState(null, '', '/amplience-visualization/staging.example/abc');
    const { container } = render(<MobileMenu {...mobileMenu} />);
    const details = container.querySelector('details') as HTMLDetailsElement;
    setOpen(details, true);
    expect(details.open).toBe(false);
  });

  it('finds the nodes along a path', () => {
    expect(nodesOnPath(menuItems, [0, 0, 1]).map((n) => n.title)).toEqual(['Womens', 'Clothing', 'Knitwear']);
    expect(nodesOnPath(menuItems, [9])).toEqual([]);
  });
});

describe('mobile menu, variant two', () => {
  it('shows at most 12 categories that have children', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ title: `C${i}`, url: `/c${i}`, children: [{ title: 'x', url: '/x', children: [] }] }));
    expect(categoriesOf([...menuItems, ...many], 12)).toHaveLength(12);
    expect(categoriesOf(menuItems, 12).map((c) => c.title)).toEqual(['Womens', 'Mens']);
    render(<MobileMenuTwo {...mobileMenu} items={[...menuItems, ...many]} />);
    expect(screen.getAllByRole('button', { pressed: false }).length + 1).toBe(12);
  });

  it('choosing a category resets its sections with the first expanded; sections toggle', () => {
    const { container } = render(<MobileMenuTwo {...mobileMenu} />);
    const sections = (): HTMLDetailsElement[] => Array.from(container.querySelectorAll<HTMLDetailsElement>('details.mnav2__section'));
    expect(screen.getByRole('button', { name: 'Womens' }).getAttribute('aria-pressed')).toBe('true');
    expect(sections().map((s) => s.open)).toEqual([true]);
    setOpen(sections()[0]!, false);
    expect(sections()[0]!.open).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Mens' }));
    expect(screen.getByRole('button', { name: 'Mens' }).getAttribute('aria-pressed')).toBe('true');
    expect(sections().map((s) => s.open)).toEqual([true]);
    expect(window.dataLayer?.at(-1)).toMatchObject({ event: 'menu_item', navigation_element: 'Mens' });
    fireEvent.click(screen.getByRole('button', { name: 'Womens' }));
    expect(sections()[0]!.open).toBe(true);
    // Items without children stay plain links.
    expect(screen.getByRole('link', { name: 'Sale' }).getAttribute('href')).toBe('/browse/collection/504');
  });
});

describe('desktop mega menu', () => {
  it('opens on hover over a top-level link with columns and closes on click', () => {
    const { container } = render(<MegaMenu {...megaMenu} />);
    const [womens, sale] = Array.from(container.querySelectorAll<HTMLElement>('.mega__item'));
    fireEvent.mouseEnter(sale!);
    expect(container.querySelector('.mega__item--open')).toBeNull();
    fireEvent.mouseEnter(womens!);
    expect(womens!.className).toContain('mega__item--open');
    fireEvent.mouseLeave(womens!);
    expect(womens!.className).not.toContain('mega__item--open');
    fireEvent.mouseEnter(womens!);
    act(() => document.body.click());
    expect(womens!.className).not.toContain('mega__item--open');
  });

  it('is keyboard-operable: the toggle opens it, Escape closes it', () => {
    const { container } = render(<MegaMenu {...megaMenu} />);
    const toggle = screen.getByRole('button', { name: 'Womens menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(container.querySelector('.mega__item')!, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('a pointer that hovers onto the toggle and clicks it leaves the panel open; a key press toggles', () => {
    const { container } = render(<MegaMenu {...megaMenu} />);
    const womens = container.querySelector<HTMLElement>('.mega__item')!;
    const toggle = screen.getByRole('button', { name: 'Womens menu' });
    // The hover opens it, and the click of the same gesture must not close it again.
    fireEvent.mouseEnter(womens);
    fireEvent.click(toggle, { detail: 1 });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle, { detail: 1 });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // Enter or Space on the toggle (a click of detail 0) closes and opens it.
    fireEvent.click(toggle, { detail: 0 });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle, { detail: 0 });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('pushes navigation_click with the breadcrumb of titles', () => {
    render(<MegaMenu {...megaMenu} />);
    const link = screen.getByRole('link', { name: /Dresses/ });
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link);
    const pushed = window.dataLayer?.at(-1);
    expect(pushed).toMatchObject({ event: 'navigation_click', navigation_element: 'Womens > Clothing > Dresses' });
    expect(typeof pushed?.timestamp).toBe('number');
  });
});
