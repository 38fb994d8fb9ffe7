//! Analytics pushes of the content blocks to `window.dataLayer` (content-blocks.md §7):
//! navigation_click and menu_item with the breadcrumb of titles, and the promo CTA click.
type DataLayerEvent = Record<string, unknown>;

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

export function pushDataLayer(event: DataLayerEvent): void {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push(event);
}

/** `Womens > Clothing > Dresses`: the titles from the top of the menu to the chosen item. */
export function breadcrumb(titles: readonly string[]): string {
  return titles.join(' > ');
}

export function navigationClick(titles: readonly string[]): void {
  pushDataLayer({ event: 'navigation_click', navigation_element: breadcrumb(titles), timestamp: Date.now() });
}

export function menuItem(titles: readonly string[]): void {
  pushDataLayer({ event: 'menu_item', navigation_element: breadcrumb(titles), timestamp: Date.now() });
}

export function promoClick(customId: string, buttonText: string, buttonLink: string): void {
  pushDataLayer({ event: 'promo_cta_click', customId, buttonText, buttonLink });
}
