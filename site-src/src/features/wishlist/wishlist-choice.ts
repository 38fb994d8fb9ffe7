// A wishlist item saved with only its colour chosen (the add-to-bag rules): before it can go
// in the bag the shopper picks a size (and a length, when the product has them) among that colour's
// variants, and the bag gets exactly that variant, never the colour's first one.
import type { CartOption } from '../../lib/store';

/** What the wishlist knows of a variant (`GET /variants`): its options and whether it can be bought. */
export interface ChoosableVariant {
  variant_id: number;
  options: CartOption[];
  purchasable: boolean;
}

export interface OptionChoice {
  value: string;
  label: string;
  /** False when no variant of the colour with this value can be bought now. */
  purchasable: boolean;
}

const COLOUR = new Set(['Color', 'Colour', 'Design']);

const valueOf = (v: ChoosableVariant, name: string): CartOption | undefined => v.options.find((o) => o.name === name);
const colourOf = (v: ChoosableVariant): string | undefined => v.options.find((o) => COLOUR.has(o.name))?.value;

/** The options a wishlist line shows: only the colour when nothing else was chosen. */
export function shownOptions(options: CartOption[], optionsChosen: boolean): CartOption[] {
  return optionsChosen ? options : options.filter((o) => COLOUR.has(o.name));
}

/** The variants of `item`'s colour among `variants` (the product's), in catalog order. */
export function sameColour(variants: readonly ChoosableVariant[], item: ChoosableVariant): ChoosableVariant[] {
  const colour = colourOf(item);
  return variants.filter((v) => colourOf(v) === colour);
}

/** The distinct values of option `name` (Size or Length) among `variants`; empty when not offered. */
export function choicesFor(variants: readonly ChoosableVariant[], name: 'Size' | 'Length'): OptionChoice[] {
  const out = new Map<string, OptionChoice>();
  for (const v of variants) {
    const option = valueOf(v, name);
    if (option === undefined) continue;
    const seen = out.get(option.value);
    out.set(option.value, { value: option.value, label: option.value, purchasable: (seen?.purchasable ?? false) || v.purchasable });
  }
  return [...out.values()];
}

/** The variant with exactly the chosen size and length (null: an option offered but not chosen). */
export function chosenVariant(variants: readonly ChoosableVariant[], size: string, length: string): ChoosableVariant | null {
  const needSize = choicesFor(variants, 'Size').length > 0;
  const needLength = choicesFor(variants, 'Length').length > 0;
  if ((needSize && size === '') || (needLength && length === '')) return null;
  return variants.find((v) => (!needSize || valueOf(v, 'Size')?.value === size) && (!needLength || valueOf(v, 'Length')?.value === length)) ?? null;
}
