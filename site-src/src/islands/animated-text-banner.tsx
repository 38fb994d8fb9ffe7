// AnimatedTextBanner island: hydrates the animated text banner content block (features/blocks/animated-text-banner.tsx)
// over templates/islands/animated-text-banner.html.
export { default, schema, type AnimatedTextBannerProps } from '../features/blocks/animated-text-banner';
