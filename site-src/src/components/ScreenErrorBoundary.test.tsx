// A screen that throws while rendering shows the error page's state; when that state throws too,
// the spec's 'An error occurred while showing the error page' with the details and a way home.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';

function Broken(): never {
  throw new Error('the screen broke');
}

function BrokenErrorView(): never {
  throw new TypeError('the error page broke');
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a client screen that fails', () => {
  it('shows the error page state in place of the screen', () => {
    // React reports the caught error on the console, as it should: keep the test output clean.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ScreenErrorBoundary prefix="/eu">
        <Broken />
      </ScreenErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'An error occured' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Please go back or try again');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/eu');
  });

  it('shows the last-resort state when the error page fails too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ScreenErrorBoundary prefix="" errorView={BrokenErrorView}>
        <Broken />
      </ScreenErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'An error occurred while showing the error page' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Unfortunately an error occurred and while showing the error page another error occurred');
    expect(screen.getByText('TypeError: the error page broke')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back to home' }).getAttribute('href')).toBe('/');
  });

  it('renders a working screen untouched', () => {
    render(
      <ScreenErrorBoundary prefix="">
        <p>Your shopping bag is empty</p>
      </ScreenErrorBoundary>,
    );
    expect(screen.getByText('Your shopping bag is empty')).toBeTruthy();
  });
});
