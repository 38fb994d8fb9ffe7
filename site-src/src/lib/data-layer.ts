// Analytics pushes to `window.dataLayer`: the one push every event goes through, and the content blocks'
// navigation_click and menu_item with the breadcrumb of titles, and the promo CTA click; all of them
// wait for consent to analytics.
import { CONSENTED, type DataLayerEvent } from './consent-rules';

/**
 * The one way an analytics event leaves the page: pushed to the tag manager's dataLayer once the
 * shopper has accepted analytics cookies, otherwise held in `window.analyticsQueue` until they choose
 * (features/shell/consent.ts keeps that queue across the visit's pages, and sends or drops it). Kept this small
 * because every page loads it.
 */
export function pushDataLayer(event: DataLayerEvent): void {
  (CONSENTED.test(document.cookie) ? (window.dataLayer ??= []) : (window.analyticsQueue ??= [])).push(event);
}

/** `Womens > Clothing > Dresses`: the titles from the top of the menu to the chosen item. */
export function breadcrumb(titles: readonly string[]): string {
  return titles.join(' > ');
}

/** A menu event (`navigation_click`, `menu_item`) with the breadcrumb of titles and the time. */
const menuEvent =
  (event: string) =>
  (titles: readonly string[]): void =>
    pushDataLayer({ event, navigation_element: breadcrumb(titles), timestamp: Date.now() });

export const navigationClick = menuEvent('navigation_click');
export const menuItem = menuEvent('menu_item');

export function promoClick(customId: string, buttonText: string, buttonLink: string): void {
  pushDataLayer({ event: 'promo_cta_click', customId, buttonText, buttonLink });
}
