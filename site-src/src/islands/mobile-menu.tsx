// MobileMenu island: hydrates the mobile menu content block (features/blocks/mobile-menu.tsx)
// over templates/islands/mobile-menu.html.
export { default, schema, type MobileMenuProps } from '../features/blocks/mobile-menu';
