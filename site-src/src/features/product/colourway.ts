// The product feature's fields of the store's shown colourway: the props of the two product islands
// for the colour shown after a change without a reload (lib/store.ts holds the slot, typed here).
import type { ProductActionsProps } from './product-actions';
import type { ProductOptionsProps } from './product-options';

declare module '../../lib/store' {
  interface ShownColourway {
    options: ProductOptionsProps;
    actions: ProductActionsProps;
  }
}
