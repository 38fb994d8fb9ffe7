// Product actions island: hydrates the product feature's add-to-bag, wishlist and notify-me actions
// (features/product/product-actions.tsx) over templates/islands/product-actions.html.
export { default, schema, type ProductActionsProps } from '../features/product/product-actions';
