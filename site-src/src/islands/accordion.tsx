// Accordion island: hydrates the accordion content block (features/blocks/accordion.tsx)
// over templates/islands/accordion.html.
export { default, schema, type AccordionProps } from '../features/blocks/accordion';
