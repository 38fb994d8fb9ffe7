// The /login screen: signed-in visitors (already, or just now) go to my-account.
import { useEffect, type ReactElement } from 'react';
import { LoginForm } from './LoginForm';
import { useShopStore } from '../../lib/store';

export default function LoginScreen({ prefix }: { prefix: string }): ReactElement {
  const signedIn = useShopStore((state) => state.customer.profile !== null);
  const toAccount = (): void => window.location.assign(`${prefix}/my-account`);
  useEffect(() => {
    if (signedIn) toAccount();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn]);
  // The effect above navigates once the customer is known; navigating here too would start a
  // second navigation that aborts the first.
  return <LoginForm prefix={prefix} onSignedIn={() => undefined} />;
}
