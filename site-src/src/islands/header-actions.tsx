// HeaderActions island: hydrates the header's account, wishlist and bag actions (features/shell/header-actions.tsx)
// over templates/islands/header-actions.html.
export { default, schema, type HeaderActionsProps } from '../features/shell/header-actions';
