// MegaMenu island: hydrates the mega menu content block (features/blocks/mega-menu.tsx)
// over templates/islands/mega-menu.html.
export { default, schema, type MegaMenuProps } from '../features/blocks/mega-menu';
