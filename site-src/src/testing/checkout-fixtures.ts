// Checkout test fixtures: a checkout view in the contract's shape, countries, and a fetch stub
// answering by method and path (recording each call), plus the page location with its `assign`.
import { vi } from 'vitest';
import type { AddressFields } from '../lib/address';
import { marketOf } from '../lib/api';
import { cartHintKey } from '../features/bag/cart';
import type { Checkout, CheckoutLine, Country } from '../features/checkout/checkout-api/checkout-view';

export const ID = 'c'.repeat(32);

export const UK: Country = { code: 'GB', name: 'United Kingdom', states: [], postal_code_label: 'Postcode' };
export const US: Country = {
  code: 'US',
  name: 'United States',
  states: [
    { code: 'CA', name: 'California' },
    { code: 'NV', name: 'Nevada' },
  ],
  postal_code_label: 'ZIP code',
};

export const ADDRESS: AddressFields = {
  first_name: 'Ada', last_name: 'Lovelace', street_name: 'Main Street', house_number: '1', city: 'London',
  state_or_province: '', postal_code: 'SW1A 1AA', country_code: 'GB', phone: '0123',
};

export function checkoutLine(overrides: Partial<CheckoutLine> = {}): CheckoutLine {
  return {
    id: 'l1', product_id: 101, variant_id: 10101, sku: '274674-BLK-8-R', name: 'Satin Slip Midi Dress',
    url: '/p/101/satin-slip-midi-dress/Black', image_url: '/media/dress.jpg', is_gift_card: false, quantity: 2,
    list_price: 65, sale_price: 45.5, extended_sale_price: 91, discount_amount: 0,
    options: [{ name: 'Color', nameId: 1, value: 'Black', valueId: 11 }, { name: 'Size', nameId: 2, value: '8', valueId: 21 }],
    available_to_sell: 7, stock_state: 'ok', previous_quantity: null,
    ...overrides,
  };
}

/** A guest's checkout with everything done (next_step payment) unless overridden. */
export function checkoutView(overrides: Partial<Checkout> = {}): Checkout {
  return {
    id: ID, market: 'uk', currency: 'GBP', signed_in: false, email: 'ada@example.com',
    lines: [checkoutLine()],
    consignment: {
      id: 'k'.repeat(32), address: ADDRESS,
      shipping_options: [
        { id: 'uk-standard', label: 'Standard Delivery', detail: '3-5 working days', amount: 3.95 },
        { id: 'uk-next-day', label: 'Next Day Delivery', detail: 'Order by 8pm', amount: 5.95 },
      ],
      shipping_option_id: 'uk-standard',
    },
    billing: { same_as_delivery: true, address: null },
    totals: { subtotal: 91, discount: 0, shipping: 3.95, total: 94.95 },
    countries: [UK],
    next_step: 'payment', can_continue: true, pending_order_id: null,
    ...overrides,
  };
}

export interface Call {
  method: string;
  path: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

export type Answer = { status: number; body?: unknown } | 'network';
type Route = Answer | ((body: unknown, call: Call) => Answer | Promise<Answer>) | Answer[];

export const apiError = (status: number, code: string, message: string, fields?: Record<string, string>): Answer => ({
  status,
  body: { error: { code, message, ...(fields === undefined ? {} : { fields }) } },
});

/**
 * fetch answering by `"METHOD /path"` (query left out). A list answers in turn, its last answer
 * then repeating; 'network' rejects like a dropped connection. Unknown routes answer 404.
 */
export function stubFetch(routes: Record<string, Route>): Call[] {
  const calls: Call[] = [];
  const served: Record<string, number> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = url.split('?')[0] ?? '';
      const headers = { ...((init?.headers as Record<string, string> | undefined) ?? {}) };
      const body: unknown = init?.body === undefined ? null : JSON.parse(String(init.body));
      const call = { method, path, url, body, headers };
      calls.push(call);
      const key = `${method} ${path}`;
      const route = routes[key];
      let answer: Answer;
      if (route === undefined) answer = { status: 404, body: { error: { code: 'not_found', message: `no route ${key}` } } };
      else if (Array.isArray(route)) {
        const index = Math.min(served[key] ?? 0, route.length - 1);
        served[key] = (served[key] ?? 0) + 1;
        answer = route[index] as Answer;
      } else answer = typeof route === 'function' ? await route(body, call) : route;
      if (answer === 'network') throw new TypeError('Failed to fetch');
      return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

/**
 * The page's location at `path`, with page loads recorded instead of made: returns `assign`
 * (the shopper moves on); `replace` (a page handing over) is `window.location.replace`. The
 * shopper's bag has lines, as far as this browser knows (`bag` false: it knows none), so a
 * checkout step asks the API.
 */
export function stubLocation(path: string, { bag = true }: { bag?: boolean } = {}): ReturnType<typeof vi.fn> {
  const url = new URL(path, 'http://localhost');
  if (bag) window.localStorage.setItem(cartHintKey(marketOf(url.pathname)), '1');
  else window.localStorage.removeItem(cartHintKey(marketOf(url.pathname)));
  const assign = vi.fn();
  vi.stubGlobal('location', { href: url.href, origin: url.origin, protocol: url.protocol, host: url.host, pathname: url.pathname, search: url.search, assign, replace: vi.fn(), reload: vi.fn() });
  return assign;
}

/** The page `window.location.replace` went to (a step handing over), if any. */
export const replacedWith = (): unknown[] => (window.location.replace as unknown as ReturnType<typeof vi.fn>).mock.calls.map((c) => c[0]);

export const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
