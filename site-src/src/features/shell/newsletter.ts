// When the newsletter modal opens: from a content link to `#newsletter` (any content block or the
// footer), or by itself once a page has been open NEWSLETTER_DELAY_MS; never on checkout pages,
// and never by itself again once the shopper dismissed it or subscribed (remembered per browser).
import { store } from '../../lib/store';

export const NEWSLETTER_KEY = 'newsletter';
/** How long a page is open before the modal offers itself (the spec leaves the delay open). */
export const NEWSLETTER_DELAY_MS = 20_000;
/** The content-managed trigger: a link whose address is this fragment. */
export const NEWSLETTER_TRIGGER = 'a[href$="#newsletter"]';

export type NewsletterOutcome = 'dismissed' | 'subscribed';

export function newsletterOutcome(): NewsletterOutcome | null {
  try {
    const value = window.localStorage.getItem(NEWSLETTER_KEY);
    return value === 'dismissed' || value === 'subscribed' ? value : null;
  } catch {
    return null;
  }
}

/** Subscribing is final; dismissing never overwrites a subscription. */
export function settleNewsletter(outcome: NewsletterOutcome): void {
  if (newsletterOutcome() === 'subscribed') return;
  try {
    window.localStorage.setItem(NEWSLETTER_KEY, outcome);
  } catch {
    // Storage blocked: it may offer itself again on a later page.
  }
}

export function isCheckoutPage(): boolean {
  return document.body.classList.contains('layout-checkout');
}

/** The delayed opening: not on checkout, not after an outcome, not over another open panel. */
export function mayOpenByItself(checkout: boolean, outcome: NewsletterOutcome | null, openPanel: string | null): boolean {
  return !checkout && outcome === null && openPanel === null;
}

/** Wires the content links and the delay on this page (session start). */
export function followNewsletter(): void {
  if (isCheckoutPage()) return;
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLElement>(NEWSLETTER_TRIGGER) : null;
    if (link === null || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    store.getState().openPanel('newsletter', link);
  });
  window.setTimeout(() => {
    if (mayOpenByItself(isCheckoutPage(), newsletterOutcome(), store.getState().panel)) store.getState().openPanel('newsletter');
  }, NEWSLETTER_DELAY_MS);
}
