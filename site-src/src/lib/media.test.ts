// Media URLs at the media host's widths: the same parameters the generator writes (render.rs).
import { describe, expect, it } from 'vitest';
import { sized, srcset } from './media';

describe('media widths', () => {
  it("asks the media host for each width, as the generator's srcset() does", () => {
    expect(srcset('/m/a.svg', [200, 453])).toBe('/m/a.svg?w=200&fmt=auto&qlt=default 200w, /m/a.svg?w=453&fmt=auto&qlt=default 453w');
    expect(sized('/m/a.svg?v=1', 200)).toBe('/m/a.svg?v=1&w=200&fmt=auto&qlt=default');
  });
});
