// The notification stack (spec §4): what notifications.ts keeps in the store, with a dismiss button.
import type { ReactElement } from 'react';
import { dismiss } from '../lib/notifications';
import { useShopStore } from '../lib/store';

export function Notifications(): ReactElement {
  const notes = useShopStore((state) => state.notifications);
  return (
    <div className="notifications" role="status" aria-live="polite">
      {notes.map((note) => (
        <div className={`notification notification--${note.tone}`} key={note.id}>
          <span className="notification__text">{note.message}</span>
          <button type="button" className="notification__close" aria-label="Dismiss" onClick={() => dismiss(note.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
