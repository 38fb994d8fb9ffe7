// The notification stack: what notifications.ts keeps in the store, each with a dismiss
// button, inside the shell's live region.
import type { ReactElement } from 'react';
import { dismiss } from '../lib/notifications';
import { useShopStore } from '../lib/store';

export default function Notifications(): ReactElement {
  const notes = useShopStore((state) => state.notifications);
  return (
    <>
      {notes.map((note) => (
        <div className={`notification notification--${note.tone}`} key={note.id}>
          <span className="notification__text">{note.message}</span>
          <button type="button" className="notification__close" aria-label="Dismiss" onClick={() => dismiss(note.id)}>
            ×
          </button>
        </div>
      ))}
    </>
  );
}
