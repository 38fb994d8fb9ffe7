// Product options island: hydrates the product feature's colour, size and length choice
// (features/product/product-options.tsx) over templates/islands/product-options.html.
export { default, schema, type ProductOptionsProps } from '../features/product/product-options';
