// Size or length recompute the price: the chosen variant's price markup (rendered by the page in a
// template when it differs from the colourway's) replaces the price; any other choice shows the
// colourway's price again.
import { describe, expect, it } from 'vitest';
import { showVariantPrice } from './product-options-live';

const PAGE = `
<div class="pdp__info">
  <div class="pdp__price" data-pdp-price aria-live="polite"><p class="price"><span class="price__now">£52.00</span></p></div>
  <template data-variant-price="12003"><p class="price"><span class="price__now">£57.00</span></p></template>
</div>`;

describe('the price of the chosen variant', () => {
  it('shows a variant that costs more, then the colourway price again', () => {
    document.body.innerHTML = PAGE;
    const price = (): string => document.querySelector('[data-pdp-price]')?.textContent ?? '';
    showVariantPrice(null);
    expect(price()).toBe('£52.00');
    showVariantPrice(12003);
    expect(price()).toBe('£57.00');
    // A variant at the colourway's price has no template.
    showVariantPrice(12001);
    expect(price()).toBe('£52.00');
    showVariantPrice(12003);
    showVariantPrice(null);
    expect(price()).toBe('£52.00');
  });

  it('does nothing on a page without a price (price hidden)', () => {
    document.body.innerHTML = '<div class="pdp__info"></div>';
    expect(() => showVariantPrice(12003)).not.toThrow();
  });
});
