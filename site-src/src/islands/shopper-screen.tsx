// Shopper screen island: the client-side screens of shell pages (bag, sign-in, registration and
// its confirmation, password reset, my-account, the checkout steps, order confirmation, cookie
// choices), each loaded only on its own
// page. Server markup: templates/islands/shopper-screen.html (an empty, fixed-height body: the
// screens are per visitor).
import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { ScreenErrorBoundary } from '../components/ScreenErrorBoundary';

export const schema = z.object({
  screen: z.string(),
  prefix: z.enum(['', '/us', '/eu']),
});

export type ShopperScreenProps = z.infer<typeof schema>;

/** Every screen gets the site's prefix and its own name (one module may serve several pages). */
type Screen = LazyExoticComponent<ComponentType<{ prefix: string; screen: string }>>;

const screens: Record<string, Screen> = {
  bag: lazy(() => import('../screens/bag')),
  login: lazy(() => import('../screens/login')),
  'create-account': lazy(() => import('../screens/create-account')),
  'confirm-account': lazy(() => import('../screens/confirm-account')),
  'forgot-password': lazy(() => import('../screens/forgot-password')),
  'update-password': lazy(() => import('../screens/update-password')),
  'change-password': lazy(() => import('../screens/update-password')),
  'my-account': lazy(() => import('../screens/my-account')),
  'my-profile': lazy(() => import('../screens/my-account')),
  'order-history': lazy(() => import('../screens/my-account')),
  'saved-addresses': lazy(() => import('../screens/my-account')),
  'checkout-identity': lazy(() => import('../features/checkout/identity-screen')),
  'checkout-delivery': lazy(() => import('../features/checkout/delivery-screen')),
  'checkout-billing': lazy(() => import('../features/checkout/billing-screen')),
  'checkout-payment': lazy(() => import('../features/checkout/payment-screen')),
  'checkout-return': lazy(() => import('../features/checkout/return-screen')),
  'order-confirmation': lazy(() => import('../screens/order-confirmation')),
  cookies: lazy(() => import('../screens/cookies')),
};

export default function ShopperScreen({ screen, prefix }: ShopperScreenProps): ReactElement {
  // The screen mounts after hydration: a lazy component inside the hydrated tree would not match the
  // empty static body.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const Screen = mounted ? screens[screen] : undefined;
  return (
    <div className="screen-body" data-screen-body={screen}>
      {Screen !== undefined && (
        <ScreenErrorBoundary prefix={prefix}>
          <Suspense fallback={null}>
            <Screen prefix={prefix} screen={screen} />
          </Suspense>
        </ScreenErrorBoundary>
      )}
    </div>
  );
}
