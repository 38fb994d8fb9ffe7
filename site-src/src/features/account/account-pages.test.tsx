// My account's pages: the page named by the shell, the account navigation marking it; saved
// addresses (default first, set another as default, edit, add with the country's fields); the
// profile's marketing preferences through the marketing-consent endpoint and 'Failed to update
// customer'; order history rows opening each order's details.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS, stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import type { Order } from '../../lib/orders';
import MyAccountScreen from './my-account-screen';

const customer = {
  id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', phone: '',
  form_fields: [{ name: 'Title', value: 'Ms' }, { name: 'Preference Email', value: false }, { name: 'Preference Post', value: false }],
};
const HOME = { ...ADDRESS, id: 'a1', city: 'London' };
const WORK = { ...ADDRESS, id: 'a2', city: 'Leeds', street_name: 'Park Row' };

function order(id: string, number: string): Order {
  return {
    id, number, status: 'Shipped', payment_status: 'captured', payment_method: 'scheme', market: 'uk', currency: 'GBP', created_at: 1_767_225_600,
    subtotal: 40, discount_amount: 0, shipping_amount: 3.95, shipping_method: 'Standard Delivery', total: 43.95,
    line_items: [{ product_id: 1, variant_id: 2, sku: 'S', name: 'Linen Shirt', quantity: 1, list_price: 40, sale_price: 40, discount_amount: 0, extended_sale_price: 40, options: [] }],
  };
}

function signedIn(path: string): void {
  stubLocation(path);
  document.cookie = 'user-authenticated=1; path=/';
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetBrowserState();
  document.cookie = 'user-authenticated=; path=/; max-age=0';
});

describe('my account pages', () => {
  it('shows the page the shell names, and the navigation marks it', async () => {
    signedIn('/MyAccount/OrderHistory');
    stubFetch({ 'GET /api/customer': { status: 200, body: customer }, 'GET /api/customer/orders': { status: 200, body: { orders: [order('o1', '100042'), order('o2', '100041')] } } });
    render(<MyAccountScreen prefix="" screen="order-history" />);
    expect((await screen.findByRole('link', { name: 'Order history' })).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBeNull();
    await screen.findByText('Order number 100042');
    expect(screen.getByRole('link', { name: 'View order 100041' }).getAttribute('href')).toBe('/MyAccount/OrderHistory?order=o2');
    expect(screen.getAllByText('Shipped')).toHaveLength(2);
    expect(screen.getAllByText('£43.95')).toHaveLength(2);
  });

  it("opens one order's details from its row", async () => {
    signedIn('/MyAccount/OrderHistory?order=o2');
    stubFetch({ 'GET /api/customer': { status: 200, body: customer }, 'GET /api/customer/orders': { status: 200, body: { orders: [order('o1', '100042'), order('o2', '100041')] } } });
    render(<MyAccountScreen prefix="" screen="order-history" />);
    expect(await screen.findByRole('heading', { name: 'Order number 100041' })).toBeTruthy();
    expect(screen.queryByText('Order number 100042')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to order history' })).toBeTruthy();
  });

  it('saved addresses: the default first, another made default, one edited, one added with the UK fields', async () => {
    signedIn('/MyAccount/SavedAddresses');
    let book = [HOME, WORK];
    const calls = stubFetch({
      'GET /api/customer': { status: 200, body: customer },
      'GET /api/customer/addresses': () => ({ status: 200, body: { data: book } }),
      'POST /api/customer/addresses/a2/default': () => {
        book = [WORK, HOME];
        return { status: 200, body: { data: book } };
      },
      'PUT /api/customer/addresses/a1': (body) => {
        book = book.map((a) => (a.id === 'a1' ? { ...a, ...(body as object) } : a));
        return { status: 200, body: { ...(body as object), id: 'a1' } };
      },
      'POST /api/customer/addresses': (body) => {
        book = [...book, { ...(body as typeof ADDRESS), id: 'a3' }];
        return { status: 201, body: { ...(body as object), id: 'a3' } };
      },
    });
    render(<MyAccountScreen prefix="" screen="saved-addresses" />);
    const first = await screen.findByText('Default address');
    expect(within(first.closest('li') as HTMLElement).getByText('London')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set as default address Park Row' }));
    await screen.findByText('Your default address has been changed.');
    await waitFor(() => expect(within(screen.getByText('Default address').closest('li') as HTMLElement).getByText('Leeds')).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'Edit address Main Street' }));
    const city = screen.getByLabelText('City *') as HTMLInputElement;
    expect(city.value).toBe('London');
    expect(screen.getByLabelText('County')).toBeTruthy();
    fireEvent.change(city, { target: { value: 'Bath' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    await screen.findByText('The address has been updated.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ city: 'Bath', country_code: 'GB' });
    await screen.findByText('Bath');

    fireEvent.click(screen.getByRole('button', { name: 'Add an address' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('Please enter a postcode')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/customer/addresses')).toHaveLength(0);
  });

  it("profile: a consent given goes through the marketing-consent endpoint; an update without the customer says 'Failed to update customer'", async () => {
    signedIn('/MyAccount/MyProfile');
    const calls = stubFetch({
      'GET /api/customer': { status: 200, body: customer },
      'POST /api/marketing-consent': { status: 201, body: { status: 'recorded' } },
      'PUT /api/customer': [
        { status: 200, body: { ...customer, form_fields: [{ name: 'Preference Email', value: true }, { name: 'Preference Post', value: false }] } },
        { status: 200, body: {} },
      ],
    });
    render(<MyAccountScreen prefix="" screen="my-profile" />);
    fireEvent.click(await screen.findByLabelText('Email me news and offers'));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await screen.findByText('Your preferences have been saved.');
    expect(calls.filter((c) => c.path === '/api/marketing-consent').map((c) => c.body)).toEqual([{ email: 'ada@example.com', category: 'marketing_email', action: 'accept' }]);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ form_fields: [{ name: 'Preference Email', value: 'true' }, { name: 'Preference Post', value: 'false' }] });
    // The answer's booleans: the box stays ticked, and saving again records no second consent.
    expect((screen.getByLabelText('Email me news and offers') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Title') as HTMLSelectElement).value).toBe('Ms');

    fireEvent.change(screen.getByLabelText('First name *'), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Failed to update customer')).toBeTruthy();
  });

  it("profile: the preferences as the API answers them (booleans) show ticked", async () => {
    signedIn('/MyAccount/MyProfile');
    stubFetch({ 'GET /api/customer': { status: 200, body: { ...customer, form_fields: [{ name: 'Preference Email', value: false }, { name: 'Preference Post', value: true }] } } });
    render(<MyAccountScreen prefix="" screen="my-profile" />);
    expect(((await screen.findByLabelText('Send me news and offers by post')) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Email me news and offers') as HTMLInputElement).checked).toBe(false);
  });
});
