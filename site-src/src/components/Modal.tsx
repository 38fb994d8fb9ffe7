// The one dialog of the shopper UI (spec §2 "Modal"): Escape closes it unless persistent, an optional
// cross, focus moved in on open, trapped while open (Tab cycles) and returned to the opener on close.
// Sidebars (bag, wishlist) and overlays (search, locale, login, added-to-bag) are this dialog with a
// different `variant` class.
import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  title: string;
  /** Shown as the visible heading; otherwise the title only labels the dialog. */
  showTitle?: boolean;
  variant: 'sidebar' | 'overlay' | 'popup' | 'centered';
  onClose(): void;
  /** A persistent modal ignores Escape and outside clicks (it has its own way out). */
  persistent?: boolean;
  closeButton?: boolean;
  /** Close on a click outside the panel (the added-to-bag popup). */
  closeOnOutsideClick?: boolean;
  className?: string;
  children: ReactNode;
}

export function Modal(props: ModalProps): ReactElement {
  const { onClose, persistent = false, closeButton = true, closeOnOutsideClick = true } = props;
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !persistent) {
        event.stopPropagation();
        onClose();
        return;
      }
      if (event.key !== 'Tab' || panel.current === null) return;
      const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || !panel.current.contains(active))) {
        event.preventDefault();
        lastItem?.focus();
      } else if (!event.shiftKey && (active === lastItem || !panel.current.contains(active))) {
        event.preventDefault();
        firstItem?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    document.documentElement.classList.add('has-modal');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.documentElement.classList.remove('has-modal');
      if (opener !== null && opener.isConnected) opener.focus();
    };
  }, [onClose, persistent]);

  return (
    <div
      className={`modal modal--${props.variant}${props.className === undefined ? '' : ` ${props.className}`}`}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && closeOnOutsideClick && !persistent) onClose();
      }}
    >
      <div className="modal__panel" ref={panel} role="dialog" aria-modal="true" aria-label={props.title} tabIndex={-1}>
        {(props.showTitle ?? true) && <h2 className="modal__title">{props.title}</h2>}
        {closeButton && (
          <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        )}
        {props.children}
      </div>
    </div>
  );
}
