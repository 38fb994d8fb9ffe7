// The product's option rules with no React in them: the props schema of the product options island,
// the variant a colour, size and length resolve to, and the choice a page's query asks for. Shared by
// the island and its after-hydration part (product-options-live.ts), which both run them.
import * as z from 'zod/mini';
import type { ProductSelection } from '../../lib/store';

const option = z.object({ id: z.number(), label: z.string() });

export const schema = z.object({
  productId: z.number(),
  name: z.string(),
  styleCode: z.string(),
  isGiftCard: z.boolean(),
  colourLabel: z.enum(['Colour', 'Design']),
  colours: z.array(
    z.object({
      label: z.string(),
      url: z.string(),
      /** The colour's option value id (its variants' `colour`); null for a product without colours. */
      valueId: z.nullable(z.number()),
      /** A CSS colour, e.g. "#1f2a44", or null when the catalog has none. */
      swatch: z.nullable(z.string()),
      selected: z.boolean(),
    }),
  ),
  sizes: z.array(option),
  lengths: z.array(option),
  variants: z.array(
    z.object({
      id: z.number(),
      colour: z.nullable(z.number()),
      size: z.nullable(z.number()),
      length: z.nullable(z.number()),
      purchasable: z.boolean(),
    }),
  ),
  colourValueId: z.nullable(z.number()),
  sizeGuideUrl: z.string(),
});

export type ProductOptionsProps = z.infer<typeof schema>;
export type Choice = z.infer<typeof option>;

/** The choice both the static page and the first render show: the only value, if there is one. */
export function soleId(choices: Choice[]): number | null {
  return choices.length === 1 && choices[0] !== undefined ? choices[0].id : null;
}

function byLabel(choices: Choice[], label: string | null): number | null {
  if (label === null) return null;
  const exact = choices.find((choice) => choice.label === label);
  if (exact !== undefined) return exact.id;
  const folded = label.trim().toLowerCase();
  return choices.find((choice) => choice.label.toLowerCase() === folded)?.id ?? null;
}

/** Colour + size + length → the variant, once every option the product has is chosen. */
export function resolveSelection(
  props: ProductOptionsProps,
  sizeId: number | null,
  lengthId: number | null,
): ProductSelection {
  const needSize = props.sizes.length > 0;
  const needLength = props.lengths.length > 0;
  const complete = (!needSize || sizeId !== null) && (!needLength || lengthId !== null);
  const variant = complete
    ? props.variants.find(
        (v) =>
          (props.colourValueId === null || v.colour === props.colourValueId) &&
          (!needSize || v.size === sizeId) &&
          (!needLength || v.length === lengthId),
      )
    : undefined;
  const colourVariant = props.variants.find((v) => props.colourValueId === null || v.colour === props.colourValueId);
  return {
    sizeId,
    lengthId,
    variantId: variant?.id ?? null,
    purchasable: variant?.purchasable ?? false,
    sizeLabel: labelOf(props.sizes, sizeId),
    lengthLabel: labelOf(props.lengths, lengthId),
    needSize,
    needLength,
    colourVariantId: colourVariant?.id ?? null,
  };
}

/** Sets (or, for null, removes) Size and Length in `url`'s query. */
export function setQuery(url: URL, params: Record<'Size' | 'Length', string | null>): void {
  for (const [key, value] of Object.entries(params)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
}

/** The size and length a query asks for, else the sole value of each. */
export function selectionFromQuery(
  props: ProductOptionsProps,
  search: string,
): { sizeId: number | null; lengthId: number | null } {
  const query = new URLSearchParams(search);
  return {
    sizeId: byLabel(props.sizes, query.get('Size')) ?? soleId(props.sizes),
    lengthId: byLabel(props.lengths, query.get('Length')) ?? soleId(props.lengths),
  };
}

export function labelOf(choices: Choice[], id: number | null): string | null {
  if (id === null) return null;
  return choices.find((choice) => choice.id === id)?.label ?? null;
}
