// The availability of one size or length value over live stock, for marking the choices on the
// product page. Its own module so it loads with the product options' after-hydration chunk
// (features/product/product-options-live.ts), not with the page.
import { level, type StockMap, type VariantOptions } from './availability';

/** A colour is in stock if any of its variants has stock (untracked variants always do). */
export function colourInStock(variants: VariantOptions[], colour: number | null, stock: StockMap): boolean {
  return variants.some((v) => (colour === null || v.colour === colour) && level(stock, v.id) !== 0);
}

/**
 * Availability of one size (or length) value: the summed stock of the variants with that value, the
 * current colour and the other option's chosen value (if chosen). Null when no variant matches;
 * Infinity when a matching variant does not track stock; undefined while stock is not loaded.
 */
export function optionAvailability(
  variants: VariantOptions[],
  stock: StockMap,
  kind: 'size' | 'length',
  valueId: number,
  chosen: { colour: number | null; size: number | null; length: number | null },
): number | null | undefined {
  const matching = variants.filter(
    (v) =>
      (chosen.colour === null || v.colour === chosen.colour) &&
      (kind === 'size' ? v.size === valueId : v.length === valueId) &&
      (kind === 'size' ? chosen.length === null || v.length === chosen.length : chosen.size === null || v.size === chosen.size),
  );
  if (matching.length === 0) return null;
  let sum = 0;
  for (const v of matching) {
    const l = level(stock, v.id);
    if (l === undefined) return undefined;
    if (l === null) return Infinity;
    sum += Math.max(0, l);
  }
  return sum;
}
