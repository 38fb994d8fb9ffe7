// Countdown island: hydrates the countdown content block (features/blocks/countdown.tsx)
// over templates/islands/countdown.html.
export { default, schema, type CountdownProps } from '../features/blocks/countdown';
