// The picture of a bag, wishlist or checkout line: the colourway's image (the API falls back to the
// product's or the store's own), sized to the 90 × 120 px box by srcset rather than sent whole.
import type { ReactElement } from 'react';
import { LINE_IMAGE_WIDTHS, sized, srcset } from '../lib/media';

export function LineImage({ src }: { src: string | null }): ReactElement {
  if (src === null) return <span className="bag-line__placeholder" />;
  return <img src={sized(src, LINE_IMAGE_WIDTHS[0])} srcSet={srcset(src, LINE_IMAGE_WIDTHS)} sizes="90px" alt="" width="90" height="120" loading="lazy" decoding="async" />;
}
