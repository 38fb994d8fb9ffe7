// Header actions (the HeaderActions island's component): neutral first render, signed-in account
// link, bag count, panels not links.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { store } from '../../lib/store';
import { resetBrowserState } from '../../testing/setup-dom';
import HeaderActions from './header-actions';

afterEach(resetBrowserState);

describe('HeaderActions', () => {
  it('renders the neutral state: search, sign-in and an empty bag', () => {
    render(<HeaderActions prefix="/us" />);
    expect(screen.getByRole('link', { name: 'Search' })).toHaveProperty('pathname', '/us/search');
    const account = screen.getByRole('link', { name: 'Sign in' });
    expect(account.getAttribute('href')).toBe('/us/login');
    expect(account.className).not.toContain('header-action--active');
    const bag = screen.getByRole('link', { name: 'Bag' });
    expect(bag.getAttribute('href')).toBe('/us/bag');
    const badge = bag.querySelector('.header-action__count') as HTMLElement;
    expect(badge.getAttribute('aria-hidden')).toBe('true');
    expect(badge.style.visibility).toBe('hidden');
    expect(badge.textContent).toBe('0');
  });

  it('shows the highlighted account link once the shared store says signed in', () => {
    render(<HeaderActions prefix="" />);
    act(() => store.getState().setSignedIn(true));
    const account = screen.getByRole('link', { name: 'My account' });
    expect(account.getAttribute('href')).toBe('/my-account');
    expect(account.className).toContain('header-action--active');
  });

  it('opens the bag sidebar and the search overlay instead of following the links', () => {
    render(<HeaderActions prefix="/eu" />);
    fireEvent.click(screen.getByRole('link', { name: 'Bag' }));
    expect(store.getState().panel).toBe('bag');
    fireEvent.click(screen.getByRole('link', { name: 'Search' }));
    expect(store.getState().panel).toBe('search');
  });

  it('shows the bag count from the shared store', () => {
    render(<HeaderActions prefix="" />);
    act(() => store.getState().setCartCount(3));
    const bag = screen.getByRole('link', { name: 'Bag, 3 items' });
    const badge = bag.querySelector('.header-action__count') as HTMLElement;
    expect(badge.textContent).toBe('3');
    expect(badge.style.visibility).toBe('');
  });
});
