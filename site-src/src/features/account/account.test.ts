// Registering keeps the guest's bag: POST /auth/register only emails a link (the same answer
// whether or not the email has an account), so nothing of the browser's state changes; opening
// the link signs in with the cart the answer carries (the bag this browser had).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import { confirmRegistration, LOGIN_SERVICE_FAILED, register, signIn, UPDATE_FAILED, updateCustomer, USER_DATA_FAILED } from './account';
import { store, type Cart } from '../../lib/store';

const customer = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', phone: '', form_fields: [] };
const line = {
  id: 'l1', product_id: 101, variant_id: 10001, sku: 'S', name: 'Dress', quantity: 2, url: '/p/101/dress/Green', image_url: null,
  is_gift_card: false, list_price: 50, sale_price: 50, extended_list_price: 100, extended_sale_price: 100, options: [],
  available_to_sell: 9, low_stock: false, sold_out: false,
};
const cart: Cart = {
  id: 'c1', market: 'uk', currency: { code: 'GBP' }, cart_amount: 100, base_amount: 100,
  line_items: { physical_items: [line], digital_items: [] }, total_item_count: 2,
};

afterEach(() => {
  vi.unstubAllGlobals();
  resetBrowserState();
});

describe('register', () => {
  it('only asks for the emailed link: the bag stays and nobody is signed in yet', async () => {
    window.localStorage.setItem('has-cart-uk', '1');
    store.getState().setCart(cart);
    const calls = stubFetch({
      'POST /api/auth/register': { status: 202, body: { status: 'confirmation_sent' } },
    });
    await register({ email: 'ada@example.com', password: 'secret123' });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/register']);
    expect(window.localStorage.getItem('has-cart-uk')).toBe('1');
    expect(store.getState().cart.data?.id).toBe('c1');
    expect(store.getState().customer.signedIn).toBe(false);
  });

  it("opening the link signs in and keeps the guest's bag from the answer", async () => {
    window.localStorage.setItem('has-cart-uk', '1');
    store.getState().setCart(cart);
    const calls = stubFetch({
      'POST /api/auth/register/confirm': { status: 200, body: { is_valid: true, customer, cart } },
      'GET /api/wishlists': { status: 200, body: { data: [{ id: 'w1', items: [] }] } },
    });
    await confirmRegistration('f'.repeat(64));
    expect(window.localStorage.getItem('has-cart-uk')).toBe('1');
    expect(store.getState().cart.data?.id).toBe('c1');
    expect(store.getState().cart.count).toBe(2);
    expect(store.getState().customer.signedIn).toBe(true);
    expect(calls[0]?.body).toMatchObject({ token: 'f'.repeat(64) });
  });
});

describe('sign-in failures (the error catalogue)', () => {
  const routes = { 'POST /api/auth/logout': { status: 204 }, 'GET /api/cart': apiError(404, 'not_found', 'No cart'), 'GET /api/wishlists': { status: 200, body: { data: [] } } };

  it("a refusal keeps the API's words and signs nobody out", async () => {
    const calls = stubFetch({ ...routes, 'POST /api/auth/login': apiError(401, 'invalid_credentials', 'The password you entered was incorrect.') });
    await expect(signIn('ada@example.com', 'wrong1')).rejects.toThrow('The password you entered was incorrect.');
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(false);
  });

  it("a failing or unreachable sign-in service says 'Credentials are invalid.' and signs out", async () => {
    for (const answer of [apiError(503, 'unavailable', 'down'), 'network' as const]) {
      const calls = stubFetch({ ...routes, 'POST /api/auth/login': answer });
      await expect(signIn('ada@example.com', 'secret123')).rejects.toThrow(LOGIN_SERVICE_FAILED);
      expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true);
      expect(store.getState().customer.signedIn).toBe(false);
    }
  });

  it("a sign-in whose answer has no customer says 'Retrieving user data failed.' and signs out", async () => {
    const calls = stubFetch({ ...routes, 'POST /api/auth/login': { status: 200, body: { is_valid: true, customer: null, cart: null } } });
    await expect(signIn('ada@example.com', 'secret123')).rejects.toThrow(USER_DATA_FAILED);
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true);
    expect(store.getState().customer.signedIn).toBe(false);
  });

  it('a wishlist that fails to load after a good sign-in never signs the customer out', async () => {
    // /login leaves for my-account as soon as the customer is known, which aborts this load.
    const calls = stubFetch({ ...routes, 'POST /api/auth/login': { status: 200, body: { is_valid: true, customer, cart: null } }, 'GET /api/wishlists': 'network' });
    await signIn('ada@example.com', 'secret123').catch(() => undefined);
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(false);
    expect(store.getState().customer.signedIn).toBe(true);
  });

  it("a profile update answered without the customer says 'Failed to update customer'", async () => {
    stubFetch({ 'PUT /api/customer': { status: 200, body: {} } });
    await expect(updateCustomer({ first_name: 'Ada' })).rejects.toThrow(UPDATE_FAILED);
    stubFetch({ 'PUT /api/customer': { status: 200, body: customer } });
    await expect(updateCustomer({ first_name: 'Ada' })).resolves.toEqual(customer);
    expect(store.getState().customer.signedIn).toBe(true);
  });
});
