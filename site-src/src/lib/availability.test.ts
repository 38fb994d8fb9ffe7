// The product page's stock rules: option availability sums, variant stock states and
// every condition of add-to-bag enablement.
import { describe, expect, it } from 'vitest';
import { canAddToBag, variantStockState, type AddToBagInput, type VariantOptions } from './availability';
import { colourInStock } from './option-availability';
import { optionAvailability } from './option-availability';

const v = (id: number, colour: number, size: number, length: number | null): VariantOptions => ({ id, colour, size, length, purchasable: true });
const variants = [v(1, 10, 100, 200), v(2, 10, 100, 201), v(3, 10, 101, 200), v(4, 11, 100, 200)];

describe('availability', () => {
  it('a colour is in stock when any of its variants is', () => {
    expect(colourInStock(variants, 10, { 1: 0, 2: 0, 3: 2, 4: 0 })).toBe(true);
    expect(colourInStock(variants, 11, { 1: 5, 4: 0 })).toBe(false);
    expect(colourInStock(variants, 11, { 4: null })).toBe(true);
  });

  it('sums a size over the other chosen values; null when nothing matches', () => {
    const stock = { 1: 3, 2: 4, 3: 0, 4: 9 };
    expect(optionAvailability(variants, stock, 'size', 100, { colour: 10, size: null, length: null })).toBe(7);
    expect(optionAvailability(variants, stock, 'size', 100, { colour: 10, size: null, length: 201 })).toBe(4);
    expect(optionAvailability(variants, stock, 'size', 101, { colour: 10, size: null, length: 201 })).toBeNull();
    expect(optionAvailability(variants, stock, 'length', 200, { colour: 10, size: 101, length: null })).toBe(0);
    expect(optionAvailability(variants, {}, 'size', 100, { colour: 10, size: null, length: null })).toBeUndefined();
    expect(optionAvailability(variants, { 1: null, 2: 1 }, 'size', 100, { colour: 10, size: null, length: null })).toBe(Infinity);
  });

  it('states of the chosen variant: unknown, untracked, sold out, low (< 5), in stock', () => {
    expect(variantStockState({ 1: 3 }, null)).toBe('unknown');
    expect(variantStockState({}, 1)).toBe('unknown');
    expect(variantStockState({ 1: null }, 1)).toBe('untracked');
    expect(variantStockState({ 1: 0 }, 1)).toBe('sold-out');
    expect(variantStockState({ 1: 4 }, 1)).toBe('low');
    expect(variantStockState({ 1: 5 }, 1)).toBe('in-stock');
  });
});

describe('add to bag is enabled only when every §4/§5 condition holds', () => {
  const ready: AddToBagInput = {
    loading: false, needSize: true, sizeChosen: true, needLength: true, lengthChosen: true,
    variantId: 1, purchasable: true, stockState: 'in-stock', fieldsValid: true, inBag: 0, available: 8,
  };
  it('is enabled when ready', () => expect(canAddToBag(ready)).toBe(true));
  it.each<[string, Partial<AddToBagInput>]>([
    ['while loading', { loading: true }],
    ['without a size', { sizeChosen: false }],
    ['without a length', { lengthChosen: false }],
    ['without a variant', { variantId: null }],
    ['for a variant the catalog disables', { purchasable: false }],
    ['with invalid gift-card fields', { fieldsValid: false }],
    ['before stock is known', { stockState: 'unknown' }],
    ['when sold out', { stockState: 'sold-out' }],
    ['when the bag already holds all the stock', { inBag: 8 }],
  ])('is disabled %s', (_label, change) => expect(canAddToBag({ ...ready, ...change })).toBe(false));
  it('needs no size or length when the product has none, and ignores stock it does not track', () => {
    expect(canAddToBag({ ...ready, needSize: false, sizeChosen: false, needLength: false, lengthChosen: false, stockState: 'untracked', available: null, inBag: 40 })).toBe(true);
  });
});
