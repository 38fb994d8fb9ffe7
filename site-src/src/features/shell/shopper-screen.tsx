// The shopper screen (hydrated by the ShopperScreen island): the client-side screens of shell pages
// (bag, sign-in, registration and its confirmation, password reset, my-account, the checkout steps,
// order confirmation, cookie choices), each loaded only on its own page (the table is
// features/shell/screens.ts). Server markup: templates/islands/shopper-screen.html (an empty,
// fixed-height body: the screens are per visitor).
import { Suspense, useEffect, useState, type ReactElement } from 'react';
import * as z from 'zod/mini';
import { ScreenErrorBoundary } from '../../components/ScreenErrorBoundary';
import { screens } from './screens';

export const schema = z.object({
  screen: z.string(),
  prefix: z.enum(['', '/us', '/eu']),
});

export type ShopperScreenProps = z.infer<typeof schema>;

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
