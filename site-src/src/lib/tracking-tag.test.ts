// The market's tag manager: never before consent to analytics, loaded once with the page's
// container id when accepted (the queue first, then gtm.start), not in content preview.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_COOKIE, flushQueue, saveConsent } from '../features/shell/consent';
import { PREVIEW_COOKIE } from './cookies';
import { resetTrackingTagForTests, TAG_MANAGER_SCRIPT } from './tracking-tag';

const tagScripts = (): string[] => Array.from(document.head.querySelectorAll('script')).map((s) => s.src);

describe('tracking tag', () => {
  beforeEach(() => {
    document.cookie = `${CONSENT_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
    document.head.innerHTML = '<meta name="tracking-tag" content="GTM-MLEU24">';
    delete window.dataLayer;
    window.analyticsQueue = [{ event: 'page_view' }];
    resetTrackingTagForTests();
  });
  afterEach(() => {
    document.cookie = `${PREVIEW_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
  });

  it('waits for consent, then loads the market container once, after the queued events', () => {
    flushQueue();
    expect(tagScripts()).toEqual([]);
    saveConsent({ analytics: true });
    expect(tagScripts()).toEqual([`${TAG_MANAGER_SCRIPT}?id=GTM-MLEU24`]);
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['page_view', 'gtm.js']);
    flushQueue();
    expect(tagScripts()).toHaveLength(1);
  });

  it('never loads after a refusal, on a market without a tag, or in content preview', () => {
    saveConsent({ analytics: false });
    flushQueue();
    expect(tagScripts()).toEqual([]);
    document.head.innerHTML = '';
    saveConsent({ analytics: true });
    expect(tagScripts()).toEqual([]);
    document.head.innerHTML = '<meta name="tracking-tag" content="GTM-MLUK24">';
    document.cookie = `${PREVIEW_COOKIE}=x.staging.bigcontent.io~0; Path=/`;
    flushQueue();
    expect(tagScripts()).toEqual([]);
  });
});
