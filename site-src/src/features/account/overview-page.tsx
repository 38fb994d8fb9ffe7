// The account overview (/my-account): the greeting, the customer's details, the latest order and
// the default address, each leading to its own page.
import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { AddressBlock } from '../../components/AddressBlock';
import { countryName, type SavedAddress } from '../../lib/address';
import { getAddresses } from './account-api/get-addresses';
import type { Customer } from '../../lib/store';
import { OrderRow, useOrders } from './orders-page';

/** One part of the overview: its title, what it shows (undefined while loading, null when empty), its page. */
function Part<T>(props: { id: string; title: string; value: T | null | undefined; empty: string; show(value: T): ReactNode; href: string; link: string }): ReactElement {
  return (
    <section className="account__section" aria-labelledby={props.id}>
      <h2 className="account__title" id={props.id}>
        {props.title}
      </h2>
      {props.value === undefined ? <p aria-busy="true">Loading...</p> : props.value === null ? <p>{props.empty}</p> : props.show(props.value)}
      <a href={props.href}>{props.link}</a>
    </section>
  );
}

export function OverviewPage({ customer, prefix }: { customer: Customer; prefix: string }): ReactElement {
  const orders = useOrders();
  const [address, setAddress] = useState<SavedAddress | null | undefined>(undefined);
  useEffect(() => {
    getAddresses()
      .then((list) => setAddress(list[0] ?? null))
      .catch(() => setAddress(null));
  }, []);
  return (
    <div className="account__overview">
      <Part
        id="overview-details"
        title="Your details"
        value={customer}
        empty=""
        show={(c) => (
          <p>
            {c.first_name} {c.last_name}
            <br />
            {c.email}
          </p>
        )}
        href={`${prefix}/MyAccount/MyProfile`}
        link="Edit your details and preferences"
      />
      <Part
        id="overview-orders"
        title="Latest order"
        value={orders === null ? undefined : (orders[0] ?? null)}
        empty="You have not placed any orders yet."
        show={(order) => (
          <ul className="order-rows">
            <OrderRow order={order} prefix={prefix} />
          </ul>
        )}
        href={`${prefix}/MyAccount/OrderHistory`}
        link="See all your orders"
      />
      <Part
        id="overview-address"
        title="Default address"
        value={address}
        empty="You have no saved addresses."
        show={(a) => <AddressBlock address={a} countryName={countryName(a.country_code)} />}
        href={`${prefix}/MyAccount/SavedAddresses`}
        link="Manage your addresses"
      />
    </div>
  );
}
