// The start of every visit, loaded after hydration by the shopper shell: who is this (the API,
// not the cookie hint, decides), what is in their bag and their wishlist; and the page behaviour
// that can wait for it (sticky header, account links).
import { loadCustomer } from './account';
import { loadCart } from './cart';
import { isSignedInHint } from './cookies';
import { store } from './store';
import { loadWishlist } from './wishlist';

let started: Promise<void> | null = null;

/** The bottom bar's Account link goes to /my-account when signed in (otherwise the login modal). */
function followAccountLinks(prefix: string): void {
  const update = (signedIn: boolean): void => {
    for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]'))) {
      link.href = signedIn ? `${prefix}/my-account` : `${prefix}/login`;
    }
  };
  update(store.getState().customer.signedIn);
  store.subscribe((state, previous) => {
    if (state.customer.signedIn !== previous.customer.signedIn) update(state.customer.signedIn);
  });
}

/** The header takes its sticky style once the page is scrolled. */
function followScroll(): void {
  const header = document.querySelector('.site-header');
  if (header === null) return;
  const update = (): void => {
    header.classList.toggle('site-header--scrolled', window.scrollY > 0);
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
}

/** Once per page: who is this, what is in their bag and wishlist. Every island may call it. */
export function startSession(prefix = ''): Promise<void> {
  started ??= (async () => {
    followAccountLinks(prefix);
    followScroll();
    store.getState().setSignedIn(isSignedInHint());
    if (store.getState().customer.signedIn) await loadCustomer().catch(() => undefined);
    await Promise.all([loadCart().catch(() => undefined), loadWishlist().catch(() => undefined)]);
  })();
  return started;
}

/** Tests only: forget that the session was started. */
export function resetSessionForTests(): void {
  started = null;
}
