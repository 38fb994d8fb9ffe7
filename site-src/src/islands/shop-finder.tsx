// ShopFinder island: hydrates the shop finder (features/shop-finder/shop-finder.tsx)
// over templates/islands/shop-finder.html.
export { default, schema, type ShopFinderProps } from '../features/shop-finder/shop-finder';
