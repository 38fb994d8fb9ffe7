// BenefitBar island: hydrates the benefit bar content block (features/blocks/benefit-bar.tsx)
// over templates/islands/benefit-bar.html.
export { default, schema, type BenefitBarProps } from '../features/blocks/benefit-bar';
