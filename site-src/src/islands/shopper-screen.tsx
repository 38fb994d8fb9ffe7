// ShopperScreen island: hydrates the client-side screen of a shell page (features/shell/shopper-screen.tsx)
// over templates/islands/shopper-screen.html.
export { default, schema, type ShopperScreenProps } from '../features/shell/shopper-screen';
