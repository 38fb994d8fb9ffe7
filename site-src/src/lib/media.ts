// Image URLs at the media host's widths (with fmt=auto, qlt=default and w=…), the same
// parameters the generator's `srcset()` writes into static pages (generator/src/render.rs).

/** The widths for a bag, wishlist or checkout line's 90 × 120 px picture (1×–3× screens). */
export const LINE_IMAGE_WIDTHS = [200, 415] as const;

/** A product card's picture: a half (phone), a third (tablet) or a quarter (desktop) of the page wide. */
export const CARD_IMAGE_WIDTHS = [415, 768] as const;
/** The card's second picture, shown on hover (desktop only). */
export const CARD_HOVER_WIDTH = 992;
export const CARD_IMAGE_SIZES = '(min-width: 992px) 25vw, (min-width: 768px) 33vw, 50vw';
/** A card swatch without a colour shows its colourway's picture at this width. */
export const SWATCH_IMAGE_WIDTH = 68;

/** `url` resized to `width` pixels wide. */
export function sized(url: string, width: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}&fmt=auto&qlt=default`;
}

/** A `srcset` listing `url` at each of `widths`. */
export function srcset(url: string, widths: readonly number[]): string {
  return widths.map((w) => `${sized(url, w)} ${w}w`).join(', ');
}
