// MobileMenuTwo island: hydrates the mobile menu two content block (features/blocks/mobile-menu-two.tsx)
// over templates/islands/mobile-menu-two.html.
export { default, schema, type MobileMenuTwoProps } from '../features/blocks/mobile-menu-two';
