// PromoClicks island: hydrates the promo clicks content block (features/blocks/promo-clicks.tsx)
// over templates/islands/promo-clicks.html.
export { default, schema } from '../features/blocks/promo-clicks';
