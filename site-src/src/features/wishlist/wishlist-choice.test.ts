// A wishlist item saved with only its colour: the sizes and lengths it offers, and the variant a
// choice names.
import { describe, expect, it } from 'vitest';
import { choicesFor, chosenVariant, sameColour, shownOptions, type ChoosableVariant } from './wishlist-choice';

const opt = (name: string, value: string, valueId: number) => ({ name, nameId: 1, value, valueId });
function variant(id: number, colour: string, size: string, length: string | null, purchasable = true): ChoosableVariant {
  return { variant_id: id, purchasable, options: [opt('Color', colour, 1), opt('Size', size, 2), ...(length === null ? [] : [opt('Length', length, 3)])] };
}

const product = [
  variant(1, 'Green', '6', 'Petite', false),
  variant(2, 'Green', '6', 'Regular'),
  variant(3, 'Green', '8', 'Petite', false),
  variant(4, 'Green', '8', 'Regular', false),
  variant(5, 'Black', '6', 'Petite'),
];

describe('wishlist size choice', () => {
  it('shows only the colour of an item whose size was not chosen', () => {
    const options = product[0]!.options;
    expect(shownOptions(options, false).map((o) => o.name)).toEqual(['Color']);
    expect(shownOptions(options, true)).toEqual(options);
  });

  it("offers the colour's sizes and lengths, each sold out only when no variant with it can be bought", () => {
    const green = sameColour(product, product[0]!);
    expect(green.map((v) => v.variant_id)).toEqual([1, 2, 3, 4]);
    expect(choicesFor(green, 'Size')).toEqual([
      { value: '6', label: '6', purchasable: true },
      { value: '8', label: '8', purchasable: false },
    ]);
    expect(choicesFor(green, 'Length').map((c) => c.value)).toEqual(['Petite', 'Regular']);
  });

  it('names a variant only once every offered option is chosen', () => {
    const green = sameColour(product, product[0]!);
    expect(chosenVariant(green, '', '')).toBeNull();
    expect(chosenVariant(green, '6', '')).toBeNull();
    expect(chosenVariant(green, '6', 'Regular')?.variant_id).toBe(2);
    const noLengths = [variant(7, 'Red', 'S', null), variant(8, 'Red', 'M', null)];
    expect(chosenVariant(noLengths, 'M', '')?.variant_id).toBe(8);
  });
});
