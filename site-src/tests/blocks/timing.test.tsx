// Timing rules of the benefit-bar ticker, the countdown and the sticker fit, with fake timers.
import { act, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import BenefitBar from '../../src/features/blocks/benefit-bar';
import Countdown, { countdownParts, msLeftInWindow } from '../../src/features/blocks/countdown';
import Sticker, { stickerScale } from '../../src/features/blocks/sticker';
import { benefitBar, benefitBarSingle, countdown, sticker } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

const ticker = (container: HTMLElement): HTMLElement => container.querySelector('.benefit-ticker') as HTMLElement;
const trackIndex = (container: HTMLElement): string =>
  (container.querySelector('.benefit-ticker__track') as HTMLElement).style.getPropertyValue('--ticker-index');

describe('benefit bar ticker', () => {
  it('advances every 3.5 s and loops to the first item after a 750 ms reset', () => {
    const { container } = render(<BenefitBar {...benefitBar} />);
    expect(ticker(container).dataset.tickerIndex).toBe('0');
    act(() => vi.advanceTimersByTime(3499));
    expect(ticker(container).dataset.tickerIndex).toBe('0');
    act(() => vi.advanceTimersByTime(1));
    expect(ticker(container).dataset.tickerIndex).toBe('1');
    act(() => vi.advanceTimersByTime(3500));
    expect(ticker(container).dataset.tickerIndex).toBe('2');
    // The copy of the first item slides in, then the track jumps back without animation.
    act(() => vi.advanceTimersByTime(3500));
    expect(trackIndex(container)).toBe('3');
    expect(ticker(container).dataset.tickerIndex).toBe('0');
    act(() => vi.advanceTimersByTime(749));
    expect(trackIndex(container)).toBe('3');
    act(() => vi.advanceTimersByTime(1));
    expect(trackIndex(container)).toBe('0');
    expect(container.querySelector('.benefit-ticker__track--instant')).not.toBeNull();
  });

  it('pauses on hover and resumes on leave', () => {
    const { container } = render(<BenefitBar {...benefitBar} />);
    fireEvent.mouseEnter(ticker(container));
    act(() => vi.advanceTimersByTime(10_000));
    expect(ticker(container).dataset.tickerIndex).toBe('0');
    expect(ticker(container).className).toContain('benefit-ticker--paused');
    fireEvent.mouseLeave(ticker(container));
    act(() => vi.advanceTimersByTime(3500));
    expect(ticker(container).dataset.tickerIndex).toBe('1');
  });

  it('resumes when the tab becomes visible', () => {
    const { container } = render(<BenefitBar {...benefitBar} />);
    fireEvent.mouseEnter(ticker(container));
    act(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    act(() => vi.advanceTimersByTime(3500));
    expect(ticker(container).dataset.tickerIndex).toBe('1');
  });

  it('does not rotate with one item', () => {
    const { container } = render(<BenefitBar {...benefitBarSingle} />);
    act(() => vi.advanceTimersByTime(20_000));
    expect(ticker(container).dataset.tickerIndex).toBe('0');
    expect(container.querySelectorAll('.benefit-ticker__item')).toHaveLength(1);
  });

  it('keeps the links of hidden items out of the tab order', () => {
    const { container } = render(<BenefitBar {...benefitBar} />);
    const links = container.querySelectorAll('a');
    expect(links[0]?.getAttribute('tabindex')).toBeNull();
    expect(links[1]?.getAttribute('tabindex')).toBe('-1');
    act(() => vi.advanceTimersByTime(3500));
    expect(container.querySelectorAll('a')[1]?.getAttribute('tabindex')).toBeNull();
  });
});

describe('countdown', () => {
  it('formats dd : hh : mm : ss with two-digit padding and zeros at the end', () => {
    expect(countdownParts(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000)).toEqual(['02', '03', '04', '05']);
    expect(countdownParts(0)).toEqual(['00', '00', '00', '00']);
    expect(countdownParts(-5000)).toEqual(['00', '00', '00', '00']);
    expect(countdownParts(999)).toEqual(['00', '00', '00', '00']);
  });

  it('is only inside the window', () => {
    const start = Date.parse(countdown.startDate);
    const end = Date.parse(countdown.endDate);
    expect(msLeftInWindow(start - 1, countdown.startDate, countdown.endDate)).toBeNull();
    expect(msLeftInWindow(start, countdown.startDate, countdown.endDate)).toBe(end - start);
    expect(msLeftInWindow(end, countdown.startDate, countdown.endDate)).toBe(0);
    expect(msLeftInWindow(end + 1, countdown.startDate, countdown.endDate)).toBeNull();
    expect(msLeftInWindow(start, 'not a date', countdown.endDate)).toBeNull();
  });

  it('ticks each second after mount, shows zeros at the end and then hides', () => {
    const end = Date.parse(countdown.endDate);
    vi.setSystemTime(end - 2000);
    const { container } = render(<Countdown {...countdown} />);
    const clock = (): string => (container.querySelector('.countdown__clock')?.textContent ?? '').replace(/\s/g, '');
    expect(clock()).toBe('00:00:00:02');
    expect(container.querySelector('[role="timer"]')?.getAttribute('aria-label')).toBe('0 days, 0 hours, 0 minutes, 2 seconds');
    act(() => vi.advanceTimersByTime(1000));
    expect(clock()).toBe('00:00:00:01');
    act(() => vi.advanceTimersByTime(1000));
    expect(clock()).toBe('00:00:00:00');
    act(() => vi.advanceTimersByTime(1000));
    expect(container.querySelector('.countdown')?.hasAttribute('hidden')).toBe(true);
    expect(container.querySelector('.countdown__clock')).toBeNull();
  });

  it('stays hidden before the start', () => {
    vi.setSystemTime(Date.parse(countdown.startDate) - 60_000);
    const { container } = render(<Countdown {...countdown} />);
    expect(container.querySelector('.countdown')?.hasAttribute('hidden')).toBe(true);
    act(() => vi.advanceTimersByTime(59_000));
    expect(container.querySelector('.countdown')?.hasAttribute('hidden')).toBe(true);
    act(() => vi.advanceTimersByTime(1000));
    expect(container.querySelector('.countdown__link')?.getAttribute('href')).toBe('/browse/collection/504');
  });
});

describe('sticker', () => {
  it('scales down, never up, to the viewport minus 56 px by 200 px', () => {
    expect(stickerScale(200, 200, 1280, 900)).toBe(1);
    expect(stickerScale(400, 200, 375, 800)).toBeCloseTo(319 / 400);
    expect(stickerScale(300, 500, 1280, 600)).toBeCloseTo(0.8);
    expect(stickerScale(300, 300, 40, 100)).toBe(0);
  });

  it('applies the fit after mount and on resize, and hides once closed', () => {
    window.innerWidth = 375;
    window.innerHeight = 800;
    const { container, getByRole } = render(<Sticker {...sticker} />);
    const el = (): HTMLElement | null => container.querySelector('.sticker');
    expect(Number(el()?.style.getPropertyValue('--sticker-scale'))).toBeCloseTo(319 / 400);
    act(() => {
      window.innerWidth = 1280;
      window.dispatchEvent(new Event('resize'));
    });
    expect(el()?.style.getPropertyValue('--sticker-scale')).toBe('1');
    fireEvent.click(getByRole('button', { name: 'Close' }));
    expect(el()).toBeNull();
  });
});
