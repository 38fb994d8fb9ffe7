// The bag's and checkout's stock marks: which state a line is in, and its words.
import { describe, expect, it } from 'vitest';
import { bagLineState, lineStockText } from './stock-copy';

describe('stock copy', () => {
  it('puts sold out first, then a reduction, then low stock', () => {
    expect(bagLineState({ sold_out: true, low_stock: true }, 4)).toBe('sold_out');
    expect(bagLineState({ sold_out: false, low_stock: true }, 4)).toBe('quantity_reduced');
    expect(bagLineState({ sold_out: false, low_stock: true }, undefined)).toBe('low_stock');
    expect(bagLineState({ sold_out: false, low_stock: false }, undefined)).toBe('ok');
  });

  it('words each state as the spec does', () => {
    expect(lineStockText('sold_out', 1, null)).toBe('Sold Out');
    expect(lineStockText('low_stock', 1, null)).toBe('There are less than 5 of these left');
    expect(lineStockText('quantity_reduced', 3, 13)).toBe('Quantity reduced from 13 to 3');
    expect(lineStockText('ok', 1, null)).toBeNull();
  });
});
