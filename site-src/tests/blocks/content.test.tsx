// State rules of the content islands: accordion items, footer columns (one open at a time unless
// `multiple`), the carousel (loop, one per scroll, arrows under 5 cards), the animated text
// banner's speeds and pause, and the promo CTA click event.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import Accordion, { toggled } from '../../src/features/blocks/accordion';
import AnimatedTextBanner from '../../src/features/blocks/animated-text-banner';
import Carousel, { stepIndex } from '../../src/features/blocks/carousel';
import FooterColumns, { nextOpen } from '../../src/features/blocks/footer-columns';
import PromoClicks, { promoOf } from '../../src/features/blocks/promo-clicks';
import { accordion, animatedTextBanner, carousel, footerColumns } from './fixtures';

afterEach(() => {
  document.body.innerHTML = '';
  window.dataLayer = [];
});

function setOpen(details: HTMLDetailsElement, open: boolean): void {
  act(() => {
    details.open = open;
    details.dispatchEvent(new Event('toggle'));
  });
}

describe('accordion', () => {
  it('renders Markdown bodies and toggles each item on its own', () => {
    const { container } = render(<Accordion {...accordion} />);
    const items = Array.from(container.querySelectorAll('details'));
    expect(items.every((d) => !d.open)).toBe(true);
    expect(container.querySelector('.accordion__body strong')?.textContent).toBe('8pm');
    setOpen(items[0]!, true);
    setOpen(items[1]!, true);
    expect(items.map((d) => d.open)).toEqual([true, true]);
    setOpen(items[0]!, false);
    expect(items.map((d) => d.open)).toEqual([false, true]);
    expect([...toggled(new Set([1]), 0, true)]).toEqual([1, 0]);
  });
});

describe('footer columns', () => {
  it('keeps one column open at a time unless multiple', () => {
    const { container } = render(<FooterColumns {...footerColumns} />);
    const cols = Array.from(container.querySelectorAll('details'));
    setOpen(cols[0]!, true);
    setOpen(cols[1]!, true);
    expect(cols.map((d) => d.open)).toEqual([false, true, false]);
    expect([...nextOpen(new Set([0]), 1, true, true)]).toEqual([0, 1]);
  });

  it('lets several columns open with multiple, and starts open with open', () => {
    const { container } = render(<FooterColumns {...footerColumns} multiple open />);
    const cols = Array.from(container.querySelectorAll('details'));
    expect(cols.map((d) => d.open)).toEqual([true, true, true]);
    setOpen(cols[1]!, false);
    setOpen(cols[1]!, true);
    expect(cols.map((d) => d.open)).toEqual([true, true, true]);
  });

  it('opens links marked openInNewTab in a new tab', () => {
    render(<FooterColumns {...footerColumns} />);
    expect(screen.getByRole('link', { name: 'Careers' }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'FAQs' }).getAttribute('target')).toBeNull();
  });
});

describe('carousel', () => {
  it('loops one card at a time', () => {
    expect(stepIndex(2, 1, 3, true)).toBe(0);
    expect(stepIndex(0, -1, 3, true)).toBe(2);
    expect(stepIndex(2, 1, 3, false)).toBe(2);
    const { container } = render(<Carousel {...carousel} />);
    const section = container.querySelector('.carousel') as HTMLElement;
    const next = screen.getByRole('button', { name: 'Next card' });
    fireEvent.click(next);
    expect(section.dataset.index).toBe('1');
    fireEvent.click(next);
    fireEvent.click(next);
    expect(section.dataset.index).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Previous card' }));
    expect(section.dataset.index).toBe('2');
  });

  it('marks fewer than 5 cards so large screens hide the arrows', () => {
    const few = render(<Carousel {...carousel} />);
    expect(few.container.querySelector('.carousel--few')).not.toBeNull();
    few.unmount();
    const cards = [...carousel.cards, ...carousel.cards];
    const many = render(<Carousel {...carousel} cards={cards} />);
    expect(many.container.querySelector('.carousel--few')).toBeNull();
  });

  it('links a card as a whole only when it is clickable', () => {
    render(<Carousel {...carousel} />);
    expect(screen.getByRole('link', { name: 'Coats & Jackets' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Dresses' })).toBeNull();
  });
});

describe('animated text banner', () => {
  it('sets the desktop and mobile speeds and pauses on request', () => {
    const { container } = render(<AnimatedTextBanner {...animatedTextBanner} />);
    const banner = container.querySelector('.atb') as HTMLElement;
    expect(banner.style.getPropertyValue('--atb-speed-d')).toBe('24s');
    expect(banner.style.getPropertyValue('--atb-speed-m')).toBe('14.5s');
    const toggle = screen.getByRole('button', { name: 'Pause the moving text' });
    fireEvent.click(toggle);
    expect(banner.className).toContain('atb--paused');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
  });
});

describe('promo call-to-action clicks', () => {
  it('pushes customId, button text and link for links with data-cta-id', () => {
    render(<PromoClicks />);
    const a = document.createElement('a');
    a.href = '/sale';
    a.setAttribute('data-cta-id', 'home-hero');
    a.innerHTML = '<span> Shop the sale </span>';
    a.addEventListener('click', (event) => event.preventDefault());
    document.body.append(a);
    fireEvent.click(a.querySelector('span')!);
    expect(window.dataLayer?.at(-1)).toEqual({ event: 'promo_cta_click', customId: 'home-hero', buttonText: 'Shop the sale', buttonLink: '/sale' });
    expect(promoOf(document.body)).toBeNull();
  });
});
