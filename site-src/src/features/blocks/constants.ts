// The content blocks' constants the islands use (the same numbers as domain/src/blocks/constants.rs).
export const MOBILE_BREAKPOINT_PX = 768;
export const COUNTDOWN_TICK_MS = 1000;
export const STICKER_MARGIN_WIDTH_PX = 56;
export const STICKER_MARGIN_HEIGHT_PX = 200;
/** The preview route on which the mobile menu is forced closed. */
export const PREVIEW_ROUTE_PREFIX = '/amplience-visualization/';

/** Whether the viewport is below the mobile breakpoint. */
export function isMobileViewport(): boolean {
  return typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT_PX;
}
