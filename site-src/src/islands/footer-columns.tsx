// FooterColumns island: hydrates the footer columns content block (features/blocks/footer-columns.tsx)
// over templates/islands/footer-columns.html.
export { default, schema, type FooterColumnsProps } from '../features/blocks/footer-columns';
