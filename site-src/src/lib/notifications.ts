// Notifications: at most 3 on screen, the oldest dropped when a fourth arrives, each
// gone after 3000 ms unless persistent. Timers live here, not in a component, so a notification
// raised while no island is mounted still expires.
import { store, type Notification } from './store';

export const MAX_NOTIFICATIONS = 3;
export const NOTIFICATION_MS = 3000;

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismiss(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  store.getState().setNotifications(store.getState().notifications.filter((n) => n.id !== id));
}

/** Shows a message; returns its id (for `dismiss`). */
export function notify(
  message: string,
  options: { tone?: Notification['tone']; persist?: boolean } = {},
): number {
  const note: Notification = { id: nextId++, message, tone: options.tone ?? 'info', persist: options.persist ?? false };
  const list = [...store.getState().notifications, note];
  while (list.length > MAX_NOTIFICATIONS) {
    const dropped = list.shift();
    if (dropped !== undefined) {
      const timer = timers.get(dropped.id);
      if (timer !== undefined) clearTimeout(timer);
      timers.delete(dropped.id);
    }
  }
  store.getState().setNotifications(list);
  if (!note.persist) timers.set(note.id, setTimeout(() => dismiss(note.id), NOTIFICATION_MS));
  return note.id;
}
