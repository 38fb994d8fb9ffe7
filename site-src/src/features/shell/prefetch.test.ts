// Link prefetch rules: never on 2g or with data saver; which links are another page of the shop;
// each page fetched once, and the cap on links merely seen (a link pointed at always goes).
import { describe, expect, it } from 'vitest';
import { mayPrefetch, PREFETCH_MAX, prefetchTarget, Prefetcher } from './prefetch';

const here = new URL('https://shop.example/browse/womens?page=2') as unknown as Location;
function link(html: string): HTMLAnchorElement {
  document.body.innerHTML = html;
  return document.body.querySelector('a') as HTMLAnchorElement;
}

describe('link prefetch', () => {
  it('is skipped on 2g and with data saver', () => {
    expect(mayPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(mayPrefetch(undefined)).toBe(true);
    expect(mayPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(mayPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
    expect(mayPrefetch({ effectiveType: '4g', saveData: true })).toBe(false);
  });

  it('fetches other pages of the shop, without their fragment', () => {
    expect(prefetchTarget(link('<a href="/p/101/dress#reviews">x</a>'), here)).toBe('https://shop.example/p/101/dress');
    expect(prefetchTarget(link('<a href="?page=3">x</a>'), here)).toBe('https://shop.example/browse/womens?page=3');
  });

  it('not this page, another site, the API, a sign-out, a download or a new tab', () => {
    for (const html of [
      '<a href="?page=2#top">x</a>',
      '<a href="https://elsewhere.example/">x</a>',
      '<a href="mailto:help@shop.example">x</a>',
      '<a href="/api/cart">x</a>',
      '<a href="/?logout=true">x</a>',
      '<a href="/size-chart.pdf" download>x</a>',
      '<a href="/p/1" target="_blank">x</a>',
    ]) {
      expect(prefetchTarget(link(html), here), html).toBeNull();
    }
  });

  it('fetches each page once, at most the cap of links seen, and always a link pointed at', () => {
    document.head.innerHTML = '';
    const prefetcher = new Prefetcher();
    for (let i = 0; i < PREFETCH_MAX + 5; i += 1) prefetcher.prefetch(`https://shop.example/p/${i}`);
    prefetcher.prefetch('https://shop.example/p/0');
    prefetcher.prefetch('https://shop.example/p/99', true);
    const hints = Array.from(document.head.querySelectorAll('link[rel="prefetch"]')).map((el) => el.getAttribute('href'));
    expect(hints).toHaveLength(PREFETCH_MAX + 1);
    expect(hints.at(-1)).toBe('https://shop.example/p/99');
  });
});
