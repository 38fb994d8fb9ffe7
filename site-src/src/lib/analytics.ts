// Analytics events of the shopper UI: view_cart, remove_from_cart, add_to_cart,
// country_selector. They go to the same window.dataLayer as the content blocks' events.
import { pushDataLayer } from './data-layer';

export function track(event: string, detail: Record<string, unknown> = {}): void {
  pushDataLayer({ event, ...detail });
}
