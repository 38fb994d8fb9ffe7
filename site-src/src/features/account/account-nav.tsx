// The account's own navigation, on each of its pages: the overview, the profile, orders,
// addresses and the password, the current page marked, and Sign out.
import type { ReactElement } from 'react';
import { signOut } from './account';

export type AccountPage = 'my-account' | 'my-profile' | 'order-history' | 'saved-addresses';

const LINKS: readonly [AccountPage | 'change-password', string, string][] = [
  ['my-account', 'Overview', '/my-account'],
  ['my-profile', 'My profile', '/MyAccount/MyProfile'],
  ['order-history', 'Order history', '/MyAccount/OrderHistory'],
  ['saved-addresses', 'Saved addresses', '/MyAccount/SavedAddresses'],
  ['change-password', 'Change password', '/ChangePassword'],
];

export function AccountNav({ prefix, current }: { prefix: string; current: AccountPage }): ReactElement {
  return (
    <nav className="account-nav" aria-label="My account">
      <ul className="account-nav__list">
        {LINKS.map(([page, label, path]) => (
          <li key={page}>
            <a className="account-nav__link" href={`${prefix}${path}`} aria-current={page === current ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        onClick={() => {
          void signOut().then(() => window.location.assign(prefix === '' ? '/' : prefix));
        }}
      >
        Sign out
      </button>
    </nav>
  );
}
