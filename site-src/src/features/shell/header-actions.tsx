// The header actions (hydrated by the HeaderActions island): search, account and bag links. Server
// markup: templates/islands/header-actions.html. Search opens the search overlay and the bag the
// bag sidebar; without JavaScript both stay links. The static page cannot know the visitor, so it
// shows the signed-out account link and a hidden, fixed-size bag badge; both fill in from the
// shared store after hydration.
import type { MouseEvent, ReactElement } from 'react';
import * as z from 'zod/mini';
import { AccountIcon, BagIcon, SearchIcon } from '../../lib/icons';
import { store, useShopStore } from '../../lib/store';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
});

export type HeaderActionsProps = z.infer<typeof schema>;

/** A left click without modifier keys (others keep the link's own behaviour, e.g. a new tab). */
function plainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export default function HeaderActions({ prefix }: HeaderActionsProps): ReactElement {
  const signedIn = useShopStore((state) => state.customer.signedIn);
  const count = useShopStore((state) => state.cart.count);
  // The bag icon is disabled while a promotions sync is loading. A link cannot be `disabled`: it is
  // marked aria-disabled and ignores clicks; the server markup (never syncing) is the same as
  // before.
  const syncing = useShopStore((state) => state.promotionsSyncing);

  const badge = count > 99 ? '99+' : String(count);
  return (
    <ul className="header-actions">
      <li>
        <a className="header-action header-action--search" href={`${prefix}/search`} aria-label="Search" onClick={(event) => {
          if (plainClick(event)) {
            event.preventDefault();
            store.getState().openPanel('search');
          }
        }}>
          <SearchIcon />
        </a>
      </li>
      <li>
        <a
          className={`header-action header-action--account${signedIn ? ' header-action--active' : ''}`}
          href={signedIn ? `${prefix}/my-account` : `${prefix}/login`}
          aria-label={signedIn ? 'My account' : 'Sign in'}
        >
          <AccountIcon />
        </a>
      </li>
      <li>
        <a
          className="header-action header-action--bag"
          href={`${prefix}/bag`}
          aria-disabled={syncing ? true : undefined}
          onClick={(event) => {
            if (syncing) {
              event.preventDefault();
            } else if (plainClick(event)) {
              event.preventDefault();
              store.getState().openPanel('bag');
            }
          }}
          aria-label={count > 0 ? `Bag, ${count} ${count === 1 ? 'item' : 'items'}` : 'Bag'}
        >
          <BagIcon />
          <span
            className="header-action__count"
            aria-hidden="true"
            style={count > 0 ? undefined : { visibility: 'hidden' }}
          >
            {badge}
          </span>
        </a>
      </li>
    </ul>
  );
}
