// The identity step: a guest's email is checked by the email rule before it is sent; a signed-in
// shopper (the API says so) goes straight to delivery; no cart or an empty bag goes back to the bag
// (without asking the API when this browser knows of no bag with lines); a sign-in in place starts
// the checkout again (the bag may have merged into another cart) and goes on.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartHintKey } from '../bag/cart';
import { apiError, checkoutView, ID, replacedWith, stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import IdentityScreen from './identity-screen';

afterEach(() => {
  // Unmounted first: an effect still due must meet the stubbed fetch, not the network.
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  resetBrowserState();
});

const guestView = checkoutView({ email: null, consignment: null, billing: null, next_step: 'identity', totals: { subtotal: 91, discount: 0, shipping: null, total: 91 } });

describe('checkout identity', () => {
  it('checks the guest email (§5) before sending it, then goes to delivery', async () => {
    const assign = stubLocation('/us/checkout-identity');
    const calls = stubFetch({
      'POST /api/checkout': { status: 201, body: guestView },
      [`PUT /api/checkout/${ID}/email`]: { status: 200, body: { ...guestView, email: 'ada@example.com', next_step: 'delivery' } },
    });
    render(<IdentityScreen prefix="/us" />);
    const guest = within(await screen.findByRole('region', { name: 'Continue as guest' }));
    const email = guest.getByLabelText('Email address *');
    fireEvent.change(email, { target: { value: 'ada@example' } });
    fireEvent.click(guest.getByRole('button', { name: 'Continue as guest' }));
    expect(await guest.findByText('Please enter a valid email address')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.change(email, { target: { value: ' ada@example.com ' } });
    fireEvent.click(guest.getByRole('button', { name: 'Continue as guest' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/us/checkout/delivery'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ email: 'ada@example.com' });
  });

  it('keeps what was typed across a reload (sessionStorage draft)', async () => {
    stubLocation('/checkout-identity');
    stubFetch({ 'POST /api/checkout': { status: 200, body: guestView } });
    const first = render(<IdentityScreen prefix="" />);
    fireEvent.change(await screen.findByLabelText('Email address *', { selector: '#checkout-email' }), { target: { value: 'grace@example.com' } });
    first.unmount();
    render(<IdentityScreen prefix="" />);
    expect(((await screen.findByLabelText('Email address *', { selector: '#checkout-email' })) as HTMLInputElement).value).toBe('grace@example.com');
    expect(window.sessionStorage.getItem('checkout-draft-uk')).toContain('grace@example.com');
  });

  it("reads the checkout again when Back/Forward restores the page from the browser's cache", async () => {
    stubLocation('/checkout-identity');
    stubFetch({ 'POST /api/checkout': { status: 200, body: guestView } });
    render(<IdentityScreen prefix="" />);
    await screen.findByRole('region', { name: 'Continue as guest' });
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    expect(window.location.reload).not.toHaveBeenCalled();
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    expect(window.location.reload).toHaveBeenCalledTimes(1);
  });

  it('sends a signed-in shopper straight to delivery', async () => {
    stubLocation('/checkout-identity');
    stubFetch({ 'POST /api/checkout': { status: 200, body: checkoutView({ signed_in: true, next_step: 'delivery', consignment: null }) } });
    render(<IdentityScreen prefix="" />);
    // Replaced, not pushed: Back from delivery must not land here and bounce forward again.
    await waitFor(() => expect(replacedWith()).toEqual(['/checkout/delivery']));
    expect(screen.queryByRole('button', { name: 'Continue as guest' })).toBeNull();
  });

  it.each([
    ['no cart goes to the home page', apiError(404, 'cart_not_found', 'There is no cart.'), '/eu/'],
    ['an empty bag goes back to the bag', apiError(409, 'cart_empty', 'Your shopping bag is empty'), '/eu/bag?notice=empty'],
  ])('the route guard: %s', async (_, answer, target) => {
    stubLocation('/eu/checkout-identity');
    stubFetch({ 'POST /api/checkout': answer });
    render(<IdentityScreen prefix="/eu" />);
    await waitFor(() => expect(replacedWith()).toEqual([target]));
    // A cart the API does not know is forgotten: the header stops counting it.
    if (target === '/eu/') expect(window.localStorage.getItem(cartHintKey('eu'))).toBeNull();
  });

  it.each([
    ['knows no cart', null, '/us/'],
    ['knows the bag is empty', '0', '/us/bag?notice=empty'],
  ])('leaves without asking the API when this browser %s', async (_, hint, target) => {
    stubLocation('/us/checkout-identity', { bag: false });
    if (hint !== null) window.localStorage.setItem(cartHintKey('us'), hint);
    const calls = stubFetch({});
    render(<IdentityScreen prefix="/us" />);
    await waitFor(() => expect(replacedWith()).toEqual([target]));
    // No refused call (404 / 409) for the console to report.
    expect(calls).toHaveLength(0);
  });

  it('signs in in place, starts the checkout again and goes to delivery', async () => {
    const assign = stubLocation('/checkout-identity');
    const customer = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'L', phone: '', form_fields: [] };
    const calls = stubFetch({
      'POST /api/checkout': [{ status: 201, body: guestView }, { status: 200, body: checkoutView({ id: 'd'.repeat(32), signed_in: true }) }],
      'POST /api/auth/login': { status: 200, body: { customer, cart: null } },
      'GET /api/wishlists': { status: 200, body: { data: [{ id: 'w1', items: [] }] } },
    });
    render(<IdentityScreen prefix="" />);
    const signIn = within(await screen.findByRole('region', { name: 'Sign in' }));
    fireEvent.change(signIn.getByLabelText('Email address *'), { target: { value: 'ada@example.com' } });
    fireEvent.change(signIn.getByLabelText('Password *'), { target: { value: 'secret123' } });
    fireEvent.click(signIn.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout/delivery'));
    expect(calls.map((c) => `${c.method} ${c.path}`).filter((c) => c === 'POST /api/checkout')).toHaveLength(2);
  });

  it("shows the login form's §8 message in place", async () => {
    stubLocation('/checkout-identity');
    stubFetch({ 'POST /api/checkout': { status: 201, body: guestView } });
    render(<IdentityScreen prefix="" />);
    const signIn = within(await screen.findByRole('region', { name: 'Sign in' }));
    fireEvent.click(signIn.getByRole('button', { name: 'Sign in' }));
    expect(await signIn.findByText('Please enter your email address and password')).toBeTruthy();
  });
});
