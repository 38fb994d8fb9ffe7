// Delivery and billing steps, and what every step does first: stock found on the way (sold out,
// reduced, low), an earlier step not done, the address sent and its shipping options, the API's
// 422 message at the form, saved addresses for a signed-in shopper, and billing's rules.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS, apiError, checkoutLine, checkoutView, ID, replacedWith, stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import BillingScreen from './billing-screen';
import DeliveryScreen from './delivery-screen';

const CONSIGNMENT = `PUT /api/checkout/${ID}/consignment`;
const OPTION = `PUT /api/checkout/${ID}/shipping-option`;
const noAddress = checkoutView({ consignment: null, billing: null, next_step: 'delivery', totals: { subtotal: 91, discount: 0, shipping: null, total: 91 } });
const withAddress = (chosen: string | null) => {
  const view = checkoutView({ next_step: chosen === null ? 'delivery' : 'billing' });
  return { ...view, consignment: view.consignment === null ? null : { ...view.consignment, shipping_option_id: chosen } };
};

function fillAddress(): void {
  const set = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  set('First name *', 'Ada');
  set('Last name *', 'Lovelace');
  set('Street name *', 'Main Street');
  set('House or apartment number *', '1');
  set('City *', 'London');
  set('Postcode *', 'SW1A 1AA');
  set('Phone number *', '0123');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
  resetBrowserState();
});

describe('stock on the way', () => {
  it("marks a sold-out line, says it must be removed, links the bag, and Continue is disabled", async () => {
    stubLocation('/checkout/billing');
    stubFetch({ 'POST /api/checkout': { status: 200, body: checkoutView({ next_step: 'billing', can_continue: false, lines: [checkoutLine({ stock_state: 'sold_out', available_to_sell: 0 })] }) } });
    render(<BillingScreen prefix="" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Satin Slip Midi Dress: Sold Out. Sold-out items must be removed from your bag before checkout.');
    expect(within(alert).getByRole('link', { name: 'Go to your bag' }).getAttribute('href')).toBe('/bag');
    expect(within(screen.getByRole('region', { name: 'Order summary' })).getByText('Sold Out')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says a quantity was reduced, from what to what, and marks a low line', async () => {
    stubLocation('/checkout/billing');
    stubFetch({
      'POST /api/checkout': {
        status: 200,
        body: checkoutView({
          next_step: 'billing',
          lines: [checkoutLine({ stock_state: 'quantity_reduced', quantity: 2, previous_quantity: 5 }), checkoutLine({ id: 'l2', name: 'Wrap Top', stock_state: 'low_stock', available_to_sell: 3 })],
        }),
      },
    });
    render(<BillingScreen prefix="" />);
    expect((await screen.findByRole('status')).textContent).toBe('We reduced the quantity of Satin Slip Midi Dress from 5 to 2: that is all we have left.');
    expect(screen.getByText('There are less than 5 of these left')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('goes to an earlier step that is not done', async () => {
    stubLocation('/us/checkout/billing');
    stubFetch({ 'POST /api/checkout': { status: 200, body: noAddress } });
    render(<BillingScreen prefix="/us" />);
    await waitFor(() => expect(replacedWith()).toEqual(['/us/checkout/delivery']));
  });
});

describe('delivery', () => {
  it('checks the address, sends it, then offers its shipping options; a choice is sent and Continue goes to billing', async () => {
    const assign = stubLocation('/checkout/delivery');
    const calls = stubFetch({
      'POST /api/checkout': { status: 201, body: noAddress },
      [CONSIGNMENT]: { status: 200, body: withAddress(null) },
      [OPTION]: (body) => ({ status: 200, body: withAddress((body as { shipping_option_id: string }).shipping_option_id) }),
    });
    render(<DeliveryScreen prefix="" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Deliver to this address' }));
    expect(await screen.findByText('Please enter a first name')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await waitFor(() => expect(document.activeElement?.id).toBe('delivery-first_name'));

    fillAddress();
    fireEvent.click(screen.getByRole('button', { name: 'Deliver to this address' }));
    const options = await screen.findByRole('group', { name: 'Delivery method' });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ address: ADDRESS });
    await waitFor(() => expect(document.activeElement?.id).toBe('delivery-method-title'));
    expect(within(options).getByText('Next Day Delivery')).toBeTruthy();
    expect(within(options).getByText('£5.95')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please select a delivery method');
    expect(assign).not.toHaveBeenCalled();

    fireEvent.click(within(options).getByRole('radio', { name: /Next Day Delivery/ }));
    await waitFor(() => expect(calls.filter((c) => `${c.method} ${c.path}` === OPTION)).toHaveLength(1));
    expect(calls.find((c) => `${c.method} ${c.path}` === OPTION)?.body).toEqual({ shipping_option_id: 'uk-next-day' });
    await waitFor(() => expect((within(options).getByRole('radio', { name: /Next Day Delivery/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(assign).toHaveBeenCalledWith('/checkout/billing');
  });

  it("shows a 422's message at the address form", async () => {
    stubLocation('/checkout/delivery');
    stubFetch({ 'POST /api/checkout': { status: 201, body: noAddress }, [CONSIGNMENT]: apiError(422, 'address_unserviceable', 'We can not ship to this address') });
    render(<DeliveryScreen prefix="" />);
    await screen.findByRole('button', { name: 'Deliver to this address' });
    fillAddress();
    fireEvent.click(screen.getByRole('button', { name: 'Deliver to this address' }));
    expect((await screen.findByRole('alert')).textContent).toBe('We can not ship to this address');
  });

  it('offers a signed-in shopper the saved addresses or a new one they may save', async () => {
    stubLocation('/checkout/delivery');
    const saved = { ...ADDRESS, id: 'a1', street_name: 'Baker Street', house_number: '221B' };
    const calls = stubFetch({
      'POST /api/checkout': { status: 200, body: { ...noAddress, signed_in: true } },
      'GET /api/customer/addresses': { status: 200, body: { data: [saved] } },
      [CONSIGNMENT]: { status: 200, body: { ...withAddress('uk-standard'), signed_in: true } },
    });
    render(<DeliveryScreen prefix="" />);
    const choices = await screen.findByRole('group', { name: 'Choose a delivery address' });
    const savedRadio = within(choices).getByRole('radio', { name: /221B Baker Street/ }) as HTMLInputElement;
    await waitFor(() => expect(savedRadio.checked).toBe(true));
    expect(screen.queryByLabelText('Save this address')).toBeNull();

    fireEvent.click(within(choices).getByRole('radio', { name: 'Add a new address' }));
    fillAddress();
    fireEvent.click(screen.getByLabelText('Save this address'));
    fireEvent.click(screen.getByRole('button', { name: 'Deliver to this address' }));
    await screen.findByRole('group', { name: 'Delivery method' });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ address: ADDRESS, save_address: true });
  });

  it('sends a saved address by its id', async () => {
    stubLocation('/checkout/delivery');
    const calls = stubFetch({
      'POST /api/checkout': { status: 200, body: { ...noAddress, signed_in: true } },
      'GET /api/customer/addresses': { status: 200, body: { data: [{ ...ADDRESS, id: 'a1' }] } },
      [CONSIGNMENT]: { status: 200, body: withAddress('uk-standard') },
    });
    render(<DeliveryScreen prefix="" />);
    await screen.findByRole('group', { name: 'Choose a delivery address' });
    fireEvent.click(screen.getByRole('button', { name: 'Deliver to this address' }));
    await screen.findByRole('group', { name: 'Delivery method' });
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ address_id: 'a1' });
  });

  it('shows a sent address as sent, with its options, until Change', async () => {
    stubLocation('/checkout/delivery');
    stubFetch({ 'POST /api/checkout': { status: 200, body: withAddress('uk-standard') } });
    render(<DeliveryScreen prefix="" />);
    expect((await screen.findByRole('radio', { name: /Standard Delivery/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Main Street', { exact: false })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change delivery address' }));
    expect((screen.getByLabelText('Street name *') as HTMLInputElement).value).toBe('Main Street');
    expect(screen.queryByRole('group', { name: 'Delivery method' })).toBeNull();
  });
});

describe('billing', () => {
  it('sends Same as delivery address by default, then goes to payment', async () => {
    const assign = stubLocation('/checkout/billing');
    const calls = stubFetch({ 'POST /api/checkout': { status: 200, body: checkoutView({ next_step: 'billing', billing: null }) }, [`PUT /api/checkout/${ID}/billing-address`]: { status: 200, body: checkoutView() } });
    render(<BillingScreen prefix="" />);
    expect((await screen.findByLabelText('Same as delivery address') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout/payment'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ same_as_delivery: true });
  });

  it("takes another address in the delivery form, and shows 'Billing address is required' from the API", async () => {
    stubLocation('/checkout/billing');
    const calls = stubFetch({
      'POST /api/checkout': { status: 200, body: checkoutView({ next_step: 'billing', billing: null }) },
      [`PUT /api/checkout/${ID}/billing-address`]: apiError(400, 'validation', 'Billing address is required', { billing_address: 'Billing address is required' }),
    });
    render(<BillingScreen prefix="" />);
    fireEvent.click(await screen.findByLabelText('Same as delivery address'));
    fillAddress();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Billing address is required');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ address: ADDRESS });
  });
});
