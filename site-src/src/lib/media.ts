// Image URLs at the media host's widths (spec §7 "Media": fmt=auto, qlt=default, w=…), the same
// parameters the generator's `srcset()` writes into static pages (generator/src/render.rs).

/** Spec §9 widths for a bag, wishlist or checkout line's 90 × 120 px picture (1×–3× screens). */
export const LINE_IMAGE_WIDTHS = [200, 415] as const;

/** `url` resized to `width` pixels wide. */
export function sized(url: string, width: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}&fmt=auto&qlt=default`;
}

/** A `srcset` listing `url` at each of `widths`. */
export function srcset(url: string, widths: readonly number[]): string {
  return widths.map((w) => `${sized(url, w)} ${w}w`).join(', ');
}
