// The newsletter modal's rules: when it may offer itself (not on checkout, not after an outcome,
// not over another panel), and that a subscription is never turned back into a dismissal.
import { beforeEach, describe, expect, it } from 'vitest';
import { mayOpenByItself, NEWSLETTER_KEY, newsletterOutcome, settleNewsletter } from './newsletter';

describe('newsletter modal', () => {
  beforeEach(() => window.localStorage.clear());

  it('offers itself only off checkout, before any outcome, with no other panel open', () => {
    expect(mayOpenByItself(false, null, null)).toBe(true);
    expect(mayOpenByItself(true, null, null)).toBe(false);
    expect(mayOpenByItself(false, 'dismissed', null)).toBe(false);
    expect(mayOpenByItself(false, 'subscribed', null)).toBe(false);
    expect(mayOpenByItself(false, null, 'bag')).toBe(false);
  });

  it('remembers the outcome; subscribing is final', () => {
    expect(newsletterOutcome()).toBeNull();
    settleNewsletter('dismissed');
    expect(newsletterOutcome()).toBe('dismissed');
    settleNewsletter('subscribed');
    settleNewsletter('dismissed');
    expect(newsletterOutcome()).toBe('subscribed');
    window.localStorage.setItem(NEWSLETTER_KEY, 'junk');
    expect(newsletterOutcome()).toBeNull();
  });
});
