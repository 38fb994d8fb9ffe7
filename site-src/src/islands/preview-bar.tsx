// PreviewBar island: hydrates the content preview bar (features/preview/preview-bar.tsx)
// over templates/islands/preview-bar.html.
export { default, schema } from '../features/preview/preview-bar';
