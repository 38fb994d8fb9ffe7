// The `purchase` data-layer event of an order confirmation, pushed once per order: the order ids
// already pushed are kept in localStorage (`purchase-tracked`), so a reload never counts it again.
import { track } from '../../lib/analytics';
import type { Order } from '../../lib/orders';

export const PURCHASE_TRACKED = 'purchase-tracked';
/** Enough to cover reloads of recent confirmations without the list growing for ever. */
const KEEP = 50;

function trackedIds(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(PURCHASE_TRACKED) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Pushes the order's purchase rows unless this browser already did; true when it pushed. */
export function trackPurchaseOnce(order: Order): boolean {
  const rows = order.purchase ?? [];
  const tracked = trackedIds();
  if (rows.length === 0 || tracked.includes(order.id)) return false;
  // Recorded first: were storage to fail after the push, a reload could count the order twice.
  try {
    window.localStorage.setItem(PURCHASE_TRACKED, JSON.stringify([...tracked, order.id].slice(-KEEP)));
  } catch {
    return false;
  }
  track('purchase', { ecommerce: rows });
  return true;
}
