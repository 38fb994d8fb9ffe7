// Keyboard focus for an open dialog (the shell's Modal, the listing's mobile filter panel): moved in
// on open, kept in while open (Tab and Shift+Tab cycle), Escape closes, and given back on close.
// One copy, so every dialog traps the same way.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * The controls Tab can reach in `root` now. Hidden ones (display: none, visibility: hidden, inert)
 * cannot take focus: were one first or last, the cycle would break at it and focus would leave.
 */
function tabbable(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.tabIndex >= 0 && el.closest('[inert]') === null && (el.checkVisibility?.({ visibilityProperty: true }) ?? true),
  );
}

/**
 * Traps focus in `root` until the returned function is called. `onEscape` (null: Escape does
 * nothing, a persistent dialog) closes the dialog. Focus goes to `[data-autofocus]`, else the first
 * control, else `root` itself (give it tabindex="-1"), and on release back to `opener` (null: the
 * element that had it when the trap was set), if that is still on the page.
 */
export function trapFocus(root: HTMLElement, onEscape: (() => void) | null, opener: HTMLElement | null = null): () => void {
  const back = opener ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
  (root.querySelector<HTMLElement>('[data-autofocus]') ?? tabbable(root)[0] ?? root).focus();
  const onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && onEscape !== null) {
      event.stopPropagation();
      onEscape();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = tabbable(root);
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    // On the dialog itself (a click on its text focuses it) or outside it (the focused control was
    // disabled or removed), the browser's next stop may be outside: wrap to an end instead.
    const lost = active === root || !root.contains(active);
    if (first === undefined || last === undefined) {
      event.preventDefault();
    } else if (event.shiftKey && (active === first || lost)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || lost)) {
      event.preventDefault();
      first.focus();
    }
  };
  document.addEventListener('keydown', onKey);
  document.documentElement.classList.add('has-modal');
  return () => {
    document.removeEventListener('keydown', onKey);
    document.documentElement.classList.remove('has-modal');
    if (back !== null && back.isConnected) back.focus();
  };
}
