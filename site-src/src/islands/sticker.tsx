// Sticker island: hydrates the sticker content block (features/blocks/sticker.tsx)
// over templates/islands/sticker.html.
export { default, schema, type StickerProps } from '../features/blocks/sticker';
