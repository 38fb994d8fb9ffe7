// Cart tracking rows: the style code and colour as the API builds an order's purchase rows, the
// line's sale price and the cart's currency; the three cart events carry them.
import { beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_COOKIE } from '../features/shell/consent';
import { cartRows, trackCartEvent, trackingProductId } from './cart-tracking';
import type { Cart, LineItem } from './store';

function line(overrides: Partial<LineItem> = {}): LineItem {
  return {
    id: 'l1', product_id: 101, variant_id: 1011, sku: 'SD1001-EG-12P', name: 'Satin Slip Midi Dress', quantity: 2, url: '/p/101',
    image_url: null, is_gift_card: false, list_price: 120, sale_price: 96, extended_list_price: 240, extended_sale_price: 192,
    options: [
      { name: 'Color', nameId: 1, value: 'Emerald Green', valueId: 2 },
      { name: 'Size', nameId: 3, value: '12', valueId: 4 },
    ],
    available_to_sell: 5, low_stock: false, sold_out: false, ...overrides,
  };
}

describe('cart tracking rows', () => {
  beforeEach(() => {
    document.cookie = `${CONSENT_COOKIE}=analytics; Path=/`;
    window.dataLayer = [];
  });

  it('names the product by style code and colour, spaces as underscores', () => {
    expect(trackingProductId(line())).toBe('SD1001_Emerald_Green');
    expect(trackingProductId(line({ options: [{ name: 'Design', nameId: 1, value: 'Gold Star', valueId: 2 }] }))).toBe('SD1001_Gold_Star');
    // No colour option (a gift card): the style code alone.
    expect(trackingProductId(line({ sku: 'GC0001', options: [] }))).toBe('GC0001');
  });

  it('gives each line its quantity, unit sale price and the currency', () => {
    expect(cartRows([line(), line({ sku: 'KN2002-NV-M', quantity: 1, sale_price: 45.5, options: [{ name: 'Colour', nameId: 1, value: 'Navy', valueId: 9 }] })], 'GBP')).toEqual([
      { productId: 'SD1001_Emerald_Green', sku: 'SD1001-EG-12P', quantity: 2, unitPrice: 96, currency: 'GBP' },
      { productId: 'KN2002_Navy', sku: 'KN2002-NV-M', quantity: 1, unitPrice: 45.5, currency: 'GBP' },
    ]);
  });

  it('sends the event with the rows in the cart currency', () => {
    const cart = { currency: { code: 'EUR' } } as Cart;
    trackCartEvent('remove_from_cart', [line()], cart);
    expect(window.dataLayer).toEqual([
      {
        event: 'remove_from_cart',
        ecommerce: { currency: 'EUR', items: [{ productId: 'SD1001_Emerald_Green', sku: 'SD1001-EG-12P', quantity: 2, unitPrice: 96, currency: 'EUR' }] },
      },
    ]);
  });
});
