// Carousel island: hydrates the carousel content block (features/blocks/carousel.tsx)
// over templates/islands/carousel.html.
export { default, schema, type CarouselProps } from '../features/blocks/carousel';
