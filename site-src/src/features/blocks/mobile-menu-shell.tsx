// What both mobile menu variants share: the <details> disclosure with its toggle, opening on the
// bottom bar's #mobile-menu link, closing on any link click and on route change (history or hash
// navigation), forced closed on the preview route, plus the Shop Finder and Help links.
import { useEffect, useState, type ReactElement, type ReactNode, type SyntheticEvent } from 'react';
import { BlockIcon } from './icons';
import { PREVIEW_ROUTE_PREFIX } from './constants';
import type { MenuNode } from './schemas';

export const MENU_HASH = '#mobile-menu';

export function isPreviewRoute(pathname: string): boolean {
  return pathname.startsWith(PREVIEW_ROUTE_PREFIX);
}

/** Open state of a mobile menu, kept in step with the <details> element and the route. */
export function useMenuOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpenState] = useState(false);
  const setOpen = (next: boolean): void => setOpenState(next && !isPreviewRoute(window.location.pathname));
  useEffect(() => {
    const onRoute = (): void => setOpenState(window.location.hash === MENU_HASH && !isPreviewRoute(window.location.pathname));
    window.addEventListener('hashchange', onRoute);
    window.addEventListener('popstate', onRoute);
    return () => {
      window.removeEventListener('hashchange', onRoute);
      window.removeEventListener('popstate', onRoute);
    };
  }, []);
  return [open, setOpen];
}

export function hasShopFinder(items: readonly MenuNode[]): boolean {
  return items.some((item) => (item.url ?? '').includes('shop-finder'));
}

export function MenuShell(props: {
  variant: 'one' | 'two';
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLinkClick: (anchor: HTMLAnchorElement) => void;
  children: ReactNode;
}): ReactElement {
  return (
    <details
      className={`mnav mnav--${props.variant}`}
      open={props.open}
      onToggle={(event: SyntheticEvent<HTMLDetailsElement>) => {
        const details = event.currentTarget;
        // On the preview route the menu stays closed: undo the browser's own toggle.
        if (details.open && isPreviewRoute(window.location.pathname)) {
          details.open = false;
          return;
        }
        if (details.open !== props.open) props.onOpenChange(details.open);
      }}
    >
      <summary className="mnav__toggle">
        <BlockIcon name="menu" size={24} />
        <BlockIcon name="close" size={24} />
        <span className="visually-hidden">Menu</span>
      </summary>
      <nav
        id="mobile-menu"
        className="mnav__panel"
        aria-label="Mobile menu"
        data-variant={props.variant}
        onClick={(event) => {
          const anchor = (event.target as Element).closest('a');
          if (anchor !== null) props.onLinkClick(anchor);
        }}
      >
        {props.children}
      </nav>
    </details>
  );
}

/** Shop Finder (unless the menu has it) and Help & FAQs, below either variant's list. */
export function AuxLinks({ prefix, items }: { prefix: string; items: readonly MenuNode[] }): ReactElement {
  return (
    <ul className="mnav__aux">
      {!hasShopFinder(items) && (
        <li>
          <a className="mnav__link" href={`${prefix}/shop-finder`}>
            Shop Finder
          </a>
        </li>
      )}
      <li>
        <a className="mnav__link" href={`${prefix}/help/faqs`}>
          Help &amp; FAQs
        </a>
      </li>
    </ul>
  );
}
