//! Header actions island: search, account and bag links. Server markup: templates/islands/header-actions.html.
// The static page cannot know the visitor, so it shows the signed-out account link and a hidden,
// fixed-size bag badge; both fill in from the shared store after hydration.
import { useEffect, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { AccountIcon, BagIcon, SearchIcon } from '../lib/icons';
import { syncSessionHints } from '../lib/session';
import { useShopStore } from '../lib/store';

export const schema = z.object({
  prefix: z.enum(['', '/us', '/eu']),
});

export type HeaderActionsProps = z.infer<typeof schema>;

export default function HeaderActions({ prefix }: HeaderActionsProps): ReactElement {
  const signedIn = useShopStore((state) => state.customer.signedIn);
  const count = useShopStore((state) => state.cart.count);

  useEffect(() => {
    syncSessionHints();
  }, []);

  const badge = count > 99 ? '99+' : String(count);
  return (
    <ul className="header-actions">
      <li>
        <a className="header-action header-action--search" href={`${prefix}/search`} aria-label="Search">
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
