// The progress bar's timing rules: nothing for loads under the 200 ms throttle, shown at least
// 200 ms once shown, overlapping loads as one, the 5000 ms run; and which clicks load a page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_LOAD } from '../../lib/api';
import { followLoads, isPageLoad, MIN_SHOWN_MS, PROGRESS_DURATION_MS, PROGRESS_THROTTLE_MS, type ProgressBar } from './progress';

const load = (detail: number): boolean => window.dispatchEvent(new CustomEvent(API_LOAD, { detail }));
const root = (): HTMLElement => document.querySelector('.progress-bar') as HTMLElement;

describe('progress bar', () => {
  let bar: ProgressBar;
  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = '';
    bar = followLoads();
  });
  afterEach(() => {
    bar.reset();
    vi.useRealTimers();
  });

  it('shows nothing for a load shorter than the throttle', () => {
    load(1);
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS - 1);
    load(-1);
    vi.advanceTimersByTime(1000);
    expect(root().hasAttribute('data-active')).toBe(false);
  });

  it('shows a longer load, runs for the duration, and stays the minimum time after it ends', () => {
    load(1);
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS);
    expect(root().hasAttribute('data-active')).toBe(true);
    expect(root().getAttribute('aria-hidden')).toBe('true');
    vi.advanceTimersByTime(20);
    const inner = root().firstElementChild as HTMLElement;
    expect(inner.style.transition).toContain(`${PROGRESS_DURATION_MS}ms`);
    expect(inner.style.transform).toBe('scaleX(0.9)');
    load(-1);
    vi.advanceTimersByTime(MIN_SHOWN_MS - 30);
    expect(inner.style.transform).toBe('scaleX(0.9)');
    vi.advanceTimersByTime(30);
    expect(inner.style.transform).toBe('scaleX(1)');
    vi.advanceTimersByTime(MIN_SHOWN_MS);
    expect(root().hasAttribute('data-active')).toBe(false);
  });

  it('counts overlapping loads as one', () => {
    load(1);
    load(1);
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS);
    load(-1);
    vi.advanceTimersByTime(1000);
    expect(bar.visible).toBe(true);
    load(-1);
    vi.advanceTimersByTime(1000);
    expect(bar.visible).toBe(false);
  });

  it('starts on a link that loads another page of the shop, not on one the page took over', () => {
    document.body.insertAdjacentHTML('beforeend', '<a id="next" href="/browse/womens">Womens</a><a id="panel" href="/bag">Bag</a>');
    document.getElementById('panel')?.addEventListener('click', (event) => event.preventDefault());
    document.getElementById('panel')?.click();
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS);
    expect(bar.visible).toBe(false);
    // jsdom would try to navigate: a window listener added after the bar's stops it, once the bar
    // has seen the click as the browser would.
    window.addEventListener('click', (event) => event.preventDefault(), { once: true });
    document.getElementById('next')?.click();
    vi.advanceTimersByTime(PROGRESS_THROTTLE_MS);
    expect(bar.visible).toBe(true);
  });
});

describe('which clicks load a page', () => {
  const clickOn = (html: string, init: MouseEventInit = {}): MouseEvent => {
    document.body.innerHTML = html;
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
    Object.defineProperty(event, 'target', { value: document.body.querySelector('a') ?? document.body });
    return event;
  };
  const here = new URL('https://shop.example/browse/womens?page=2') as unknown as Location;

  it('a link to another page of the shop', () => {
    expect(isPageLoad(clickOn('<a href="/p/101/dress">x</a>'), here)).toBe(true);
    expect(isPageLoad(clickOn('<a href="https://shop.example/browse/womens?page=3">x</a>'), here)).toBe(true);
  });

  it('not another site, a new tab, a download, a modified click, or a fragment of this page', () => {
    expect(isPageLoad(clickOn('<a href="https://elsewhere.example/">x</a>'), here)).toBe(false);
    expect(isPageLoad(clickOn('<a href="/p/1" target="_blank">x</a>'), here)).toBe(false);
    expect(isPageLoad(clickOn('<a href="/guide.pdf" download>x</a>'), here)).toBe(false);
    expect(isPageLoad(clickOn('<a href="/p/1">x</a>', { ctrlKey: true }), here)).toBe(false);
    expect(isPageLoad(clickOn('<a href="?page=2#top">x</a>'), here)).toBe(false);
    expect(isPageLoad(clickOn('<button>x</button>'), here)).toBe(false);
  });
});
