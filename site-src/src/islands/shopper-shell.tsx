// ShopperShell island: hydrates the shopper shell (session start, panels, notifications) (features/shell/shopper-shell.tsx)
// over templates/islands/shopper-shell.html.
export { default, schema, type ShopperShellProps } from '../features/shell/shopper-shell';
