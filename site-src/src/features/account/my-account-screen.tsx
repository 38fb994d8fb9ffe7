// My account: one screen for its four pages, the page named by the shell (`screen`): the overview
// (/my-account), My profile, Order history and Saved addresses, each with the account's own
// navigation. Guests are asked to sign in; a stale sign-in hint is sent to the sign-in page.
import { useEffect, useState, type ReactElement } from 'react';
import { AccountNav, type AccountPage } from './account-nav';
import { AddressesPage } from './addresses-page';
import { OrdersPage } from './orders-page';
import { OverviewPage } from './overview-page';
import { ProfilePage } from './profile-page';
import { loadCustomer } from './account';
import { isSignedInHint } from '../../lib/cookies';
import type { Customer } from '../../lib/store';

const PAGES: readonly AccountPage[] = ['my-account', 'my-profile', 'order-history', 'saved-addresses'];

export default function MyAccountScreen({ prefix, screen }: { prefix: string; screen?: string }): ReactElement {
  const page = PAGES.find((p) => p === screen) ?? 'my-account';
  const [customer, setCustomer] = useState<Customer | null>(null);
  // Without the signed-in hint there is no session to ask about (asking would answer 401).
  const [guest] = useState(() => !isSignedInHint());
  useEffect(() => {
    if (guest) return;
    loadCustomer()
      .then((me) => {
        if (me === null) window.location.assign(`${prefix}/login`);
        else setCustomer(me);
      })
      .catch(() => undefined);
  }, [prefix, guest]);
  if (guest) {
    return (
      <p>
        Please <a href={`${prefix}/login`}>sign in</a> to see your account.
      </p>
    );
  }
  if (customer === null) return <p aria-busy="true">Loading...</p>;
  return (
    <div className="account" data-account-page={page}>
      <p className="account__hello">Hello {customer.first_name}</p>
      <AccountNav prefix={prefix} current={page} />
      <div className="account__page">
        {page === 'my-account' && <OverviewPage customer={customer} prefix={prefix} />}
        {page === 'my-profile' && <ProfilePage customer={customer} onSaved={setCustomer} />}
        {page === 'order-history' && <OrdersPage prefix={prefix} />}
        {page === 'saved-addresses' && <AddressesPage />}
      </div>
    </div>
  );
}
