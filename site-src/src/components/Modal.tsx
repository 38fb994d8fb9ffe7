// The one dialog of the shopper UI: Escape closes it unless persistent, an optional
// cross, focus moved in on open, trapped while open (Tab cycles) and returned to the opener on close.
// Sidebars (bag, wishlist) and overlays (search, locale, login, added-to-bag) are this dialog with a
// different `variant` class.
import { useEffect, useRef, type ReactElement, type ReactNode } from 'react';
import { trapFocus } from '../lib/focus-trap';

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
  /** Where focus returns on close, when not the element focused at open (see StoreState.opener). */
  opener?: HTMLElement | null;
  children: ReactNode;
}

export function Modal(props: ModalProps): ReactElement {
  const { onClose, persistent = false, closeButton = true, closeOnOutsideClick = true, opener = null } = props;
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (panel.current === null) return undefined;
    return trapFocus(panel.current, persistent ? null : onClose, opener);
  }, [onClose, persistent, opener]);

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
