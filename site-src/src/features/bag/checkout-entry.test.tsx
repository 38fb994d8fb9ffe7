// Where Checkout goes: the bag's and the added-to-bag popup's Checkout skip the identity step
// for a signed-in shopper (store or the `user-authenticated` hint); the /bag page says why the
// checkout sent the shopper back (`?notice=`).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkoutEntry } from './cart';
import { store, type Cart } from '../../lib/store';
import { stubFetch, stubLocation } from '../../testing/checkout-fixtures';
import { resetBrowserState } from '../../testing/setup-dom';
import BagScreen from './bag-screen';
import AddedToBag from './AddedToBag';
import { BagContents } from './BagContents';

const line = {
  id: 'l1', product_id: 101, variant_id: 10001, sku: 'S', name: 'Dress', quantity: 1, url: '/p/101/dress/Green', image_url: null,
  is_gift_card: false, list_price: 50, sale_price: 50, extended_list_price: 50, extended_sale_price: 50, options: [],
  available_to_sell: 9, low_stock: false, sold_out: false,
};
const cart: Cart = { id: 'c1', market: 'us', currency: { code: 'USD' }, cart_amount: 50, base_amount: 50, line_items: { physical_items: [line], digital_items: [] }, total_item_count: 1 };
const customer = { id: 'u1', email: 'a@b.co', first_name: 'A', last_name: 'B', phone: '', form_fields: [] };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetBrowserState();
});

describe('Checkout from the bag and the popup', () => {
  it('goes to the identity step for a guest and to delivery when signed in', () => {
    expect(checkoutEntry('/us', false)).toBe('/us/checkout-identity');
    expect(checkoutEntry('/us', true)).toBe('/us/checkout/delivery');
    document.cookie = 'user-authenticated=1; path=/';
    expect(checkoutEntry('', false)).toBe('/checkout/delivery');
  });

  it("the bag's Checkout button follows the store's signed-in state", () => {
    const assign = stubLocation('/us/bag');
    act(() => {
      store.getState().setCart(cart);
      store.getState().setCustomer(customer);
    });
    render(<BagContents inSidebar />);
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(assign).toHaveBeenCalledWith('/us/checkout/delivery');
  });

  it("the popup's Checkout link goes to identity for a guest", () => {
    stubLocation('/us/p/101/dress/Green');
    act(() => store.getState().setAdded({ name: 'Dress', imageUrl: null, price: '$50.00', specialPrice: null, size: '8', colour: 'Green', length: null, quantity: 1, isGiftCard: false, sku: 'S' }));
    render(<AddedToBag />);
    expect(screen.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe('/us/checkout-identity');
  });
});

describe('the bag page after the checkout sent the shopper back', () => {
  it('says the quantity exceeded the stock (?notice=stock)', async () => {
    stubLocation('/bag?notice=stock');
    window.localStorage.setItem('has-cart-uk', '1');
    stubFetch({ 'GET /api/cart': { status: 200, body: { ...cart, market: 'uk', currency: { code: 'GBP' } } } });
    render(<BagScreen />);
    expect(screen.getByRole('alert').textContent).toBe('The selected quantity exceeds available stock');
    expect(await screen.findByRole('link', { name: 'Dress' })).toBeTruthy();
  });

  it("shows 'Your shopping bag is empty' for an empty bag (?notice=empty), once", async () => {
    stubLocation('/bag?notice=empty');
    stubFetch({});
    render(<BagScreen />);
    expect(screen.getAllByText('Your shopping bag is empty')).toHaveLength(1);
  });
});
