// The client-side screens by name, each its own lazy chunk: the shell pages the generator writes
// (its SHELLS table) name one of these, and tests/unit/screens-parity.test.ts holds the two lists together.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Every screen gets the site's prefix and its own name (one module may serve several pages). */
type Screen = LazyExoticComponent<ComponentType<{ prefix: string; screen: string }>>;

export const screens: Record<string, Screen> = {
  bag: lazy(() => import('../bag/bag-screen')),
  login: lazy(() => import('../account/login-screen')),
  'create-account': lazy(() => import('../account/create-account-screen')),
  'confirm-account': lazy(() => import('../account/confirm-account-screen')),
  'forgot-password': lazy(() => import('../account/forgot-password-screen')),
  'update-password': lazy(() => import('../account/update-password-screen')),
  'change-password': lazy(() => import('../account/update-password-screen')),
  'my-account': lazy(() => import('../account/my-account-screen')),
  'my-profile': lazy(() => import('../account/my-account-screen')),
  'order-history': lazy(() => import('../account/my-account-screen')),
  'saved-addresses': lazy(() => import('../account/my-account-screen')),
  'checkout-identity': lazy(() => import('../checkout/identity-screen')),
  'checkout-delivery': lazy(() => import('../checkout/delivery-screen')),
  'checkout-billing': lazy(() => import('../checkout/billing-screen')),
  'checkout-payment': lazy(() => import('../checkout/payment-screen')),
  'checkout-return': lazy(() => import('../checkout/return-screen')),
  'order-confirmation': lazy(() => import('../checkout/order-confirmation-screen')),
  cookies: lazy(() => import('./cookies-screen')),
};
