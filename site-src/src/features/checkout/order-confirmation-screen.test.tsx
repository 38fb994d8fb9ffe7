// The order confirmation: 'Thank you for your order.' only once the owner's order has loaded, the
// not-found state for anyone else (404), the guest's account offer (or the account-exists copy),
// and the purchase event pushed once per order, never again on reload.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, ADDRESS, stubFetch, stubLocation, type Answer } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import type { Order } from '../../lib/orders';
import OrderConfirmationScreen from './order-confirmation-screen';

const C = 'a'.repeat(32);
const O = 'b'.repeat(32);
const PATH = `/order-confirmation/${C}/${O}`;
const GET = `GET /api/orders/${C}/${O}`;
const ACCOUNT = `POST /api/orders/${C}/${O}/account`;
const EXISTS = 'An account already exists for the email you used to checkout. Please reset your password.';

function order(overrides: Partial<Order> = {}): Order {
  return {
    id: O, number: '100042', status: 'Confirmed', payment_status: 'captured', payment_method: 'scheme', market: 'uk', currency: 'GBP', created_at: 1_700_000_000,
    subtotal: 91, discount_amount: 0, shipping_amount: 3.95, shipping_method: 'Standard Delivery', total: 94.95,
    line_items: [{ product_id: 101, variant_id: 10101, sku: '274674-BLK-8-R', name: 'Satin Slip Midi Dress', quantity: 2, list_price: 65, sale_price: 45.5, discount_amount: 0, extended_sale_price: 91, options: [] }],
    email: 'ada@example.com', delivery_address: ADDRESS, billing_address: ADDRESS,
    guest_account: { email: 'ada@example.com', account_exists: false },
    purchase: [{ purchaseId: '100042', productId: '274674_Black', sku: '274674-BLK-8-R', quantity: 2, unitPrice: 45.5, currency: 'GBP' }],
    ...overrides,
  };
}

const purchases = (): unknown[] => ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).filter((e) => e.event === 'purchase');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetBrowserState();
  delete (window as unknown as { dataLayer?: unknown }).dataLayer;
});

describe('order confirmation', () => {
  it("thanks the owner only once the order has loaded, with its number, lines, totals and delivery", async () => {
    stubLocation(PATH);
    let release = (_: Answer): void => undefined;
    stubFetch({ [GET]: () => new Promise<Answer>((resolve) => (release = resolve)) });
    render(<OrderConfirmationScreen prefix="" />);
    expect(screen.queryByText('Thank you for your order.')).toBeNull();
    release({ status: 200, body: order({ guest_account: null }) });
    expect(await screen.findByText('Thank you for your order.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Order number 100042' })).toBeTruthy();
    expect(screen.getByText('£94.95')).toBeTruthy();
    expect(screen.getByText('Delivery method: Standard Delivery')).toBeTruthy();
    expect(screen.getByText('SW1A 1AA')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Create an account' })).toBeNull();
  });

  it("says 'Currently unavailable' when the API is down or unreachable, and 'An error occured' on another error", async () => {
    stubLocation(PATH);
    stubFetch({ [GET]: apiError(503, 'unavailable', 'The store is being updated') });
    render(<OrderConfirmationScreen prefix="" />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Currently unavailable');
    expect(screen.getByRole('alert').textContent).toBe('Please try again in a few minutes');
    expect(screen.queryByText('Thank you for your order.')).toBeNull();
    cleanup();
    stubFetch({ [GET]: apiError(500, 'internal', 'Internal error') });
    render(<OrderConfirmationScreen prefix="" />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('An error occured');
    expect(screen.getByRole('alert').textContent).toBe('Please go back or try again');
  });

  it("shows the not-found state to anyone but the owner (404)", async () => {
    stubLocation(PATH);
    stubFetch({ [GET]: apiError(404, 'not_found', 'Not found') });
    render(<OrderConfirmationScreen prefix="" />);
    expect((await screen.findByRole('alert')).textContent).toBe('This page could not be found');
    expect(screen.queryByText('Thank you for your order.')).toBeNull();
    expect(purchases()).toHaveLength(0);
  });

  it('shows only the not-found state: the 404 heading and links in place of the shell page head', async () => {
    document.body.innerHTML = '<div class="shell"><div class="page-head"><h1 class="page-title">Order confirmation</h1></div><div id="screen"></div></div>';
    document.title = 'Order confirmation | Maison Lark';
    stubLocation(PATH.replace('/order-confirmation', '/eu/order-confirmation'));
    stubFetch({ [GET]: apiError(404, 'not_found', 'Not found') });
    render(<OrderConfirmationScreen prefix="/eu" />, { container: document.getElementById('screen') ?? undefined });
    await screen.findByRole('alert');
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['Page not found']);
    expect(document.title).toBe('Page not found | Maison Lark');
    expect(screen.getAllByRole('link').map((a) => `${a.textContent} ${a.getAttribute('href')}`)).toEqual([
      'Home /eu',
      'Women /eu/browse/womens',
      'Men /eu/browse/mens',
      'Other Stuff /eu/other-stuff',
    ]);
  });

  it('offers a guest an account for the checkout email (read-only), title and a §5 password, then my-account', async () => {
    const assign = stubLocation(`/us${PATH}`);
    const calls = stubFetch({ [GET]: { status: 200, body: order() }, [ACCOUNT]: { status: 201, body: { status: 'created' } } });
    render(<OrderConfirmationScreen prefix="/us" />);
    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeTruthy();
    const email = screen.getByLabelText('Email address') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(email.readOnly).toBe(true);
    const title = screen.getByLabelText('Title *') as HTMLSelectElement;
    expect(Array.from(title.options).map((o) => o.value)).toEqual(['', 'Mr', 'Mrs', 'Miss', 'Ms', 'Mx', 'Dr']);

    fireEvent.change(screen.getByLabelText('Password *'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Please select a title')).toBeTruthy();
    expect(screen.getByText('Password must be at least 7 characters and include a letter and a number')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(title, { target: { value: 'Dr' } });
    fireEvent.change(screen.getByLabelText('Password *'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/us/my-account'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ title: 'Dr', password: 'secret123', preferenceEmail: false });
    expect(calls.find((c) => c.method === 'POST')?.url).toBe(`/api/orders/${C}/${O}/account?market=us`);
  });

  it('says an account exists, with the reset link, when the order says so', async () => {
    stubLocation(PATH);
    stubFetch({ [GET]: { status: 200, body: order({ guest_account: { email: 'ada@example.com', account_exists: true } }) } });
    render(<OrderConfirmationScreen prefix="" />);
    expect(await screen.findByText(EXISTS)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
  });

  it('says an account exists when creating one answers 409 account_exists', async () => {
    stubLocation(`/eu${PATH}`);
    stubFetch({ [GET]: { status: 200, body: order() }, [ACCOUNT]: apiError(409, 'account_exists', EXISTS) });
    render(<OrderConfirmationScreen prefix="/eu" />);
    fireEvent.change(await screen.findByLabelText('Title *'), { target: { value: 'Ms' } });
    fireEvent.change(screen.getByLabelText('Password *'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(EXISTS)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/eu/forgot-password');
  });

  it('pushes the purchase event with the rows once per order, not again on reload', async () => {
    stubLocation(PATH);
    stubFetch({ [GET]: { status: 200, body: order() } });
    const first = render(<OrderConfirmationScreen prefix="" />);
    await screen.findByText('Thank you for your order.');
    expect(purchases()).toEqual([{ event: 'purchase', ecommerce: order().purchase }]);
    first.unmount();
    render(<OrderConfirmationScreen prefix="" />);
    await screen.findByText('Thank you for your order.');
    expect(purchases()).toHaveLength(1);
    expect(JSON.parse(window.localStorage.getItem('purchase-tracked') ?? '[]')).toEqual([O]);
  });
});
