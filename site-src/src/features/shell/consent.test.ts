// Cookie consent rules: the stored choice, events queued until analytics is accepted (in order,
// carried to the next page, bounded), sent on acceptance, dropped on refusal; and the /cookies
// screen's policy extraction.
import { beforeEach, describe, expect, it } from 'vitest';
import { pageBlocks as policyBlocks } from '../../lib/content-page';
import { CONSENT_COOKIE, keepQueue, parseConsent, QUEUE_KEY, QUEUE_MAX, readConsent, saveConsent, sendEvent } from './consent';
import { CONSENTED } from '../../lib/consent-rules';

const layer = (): unknown[] => window.dataLayer ?? [];
const queued = (): unknown[] => window.analyticsQueue ?? [];
const stored = (): unknown[] => JSON.parse(window.sessionStorage.getItem(QUEUE_KEY) ?? '[]') as unknown[];
/** Leaving the page, then the next page's session start. */
const nextPage = (): void => {
  window.dispatchEvent(new Event('pagehide'));
  delete window.analyticsQueue;
  keepQueue();
};

describe('cookie consent', () => {
  beforeEach(() => {
    document.cookie = `${CONSENT_COOKIE}=; Max-Age=0; Path=/`;
    window.sessionStorage.clear();
    delete window.dataLayer;
    delete window.analyticsQueue;
  });

  it('reads only the two stored choices', () => {
    expect(parseConsent('analytics')).toEqual({ analytics: true });
    expect(parseConsent('necessary')).toEqual({ analytics: false });
    expect(parseConsent('yes')).toBeNull();
    expect(parseConsent(null)).toBeNull();
    expect(readConsent()).toBeNull();
    expect(CONSENTED.test(`a=1; ${CONSENT_COOKIE}=analytics`)).toBe(true);
    expect(CONSENTED.test(`${CONSENT_COOKIE}=necessary`)).toBe(false);
  });

  it('queues events without a choice, carries them to the next page, and sends them in order once accepted', () => {
    keepQueue();
    sendEvent({ event: 'navigation_click' });
    nextPage();
    expect(stored()).toEqual([]);
    sendEvent({ event: 'view_cart' });
    expect(layer()).toEqual([]);
    expect(queued()).toEqual([{ event: 'navigation_click' }, { event: 'view_cart' }]);
    saveConsent({ analytics: true });
    expect(readConsent()).toEqual({ analytics: true });
    expect(layer()).toEqual([{ event: 'navigation_click' }, { event: 'view_cart' }]);
    expect(window.sessionStorage.getItem(QUEUE_KEY)).toBeNull();
    sendEvent({ event: 'remove_from_cart' });
    expect(layer()).toHaveLength(3);
  });

  it('drops the queue on refusal and sends nothing after it', () => {
    sendEvent({ event: 'navigation_click' });
    saveConsent({ analytics: false });
    expect(readConsent()).toEqual({ analytics: false });
    expect(window.sessionStorage.getItem(QUEUE_KEY)).toBeNull();
    sendEvent({ event: 'view_cart' });
    expect(layer()).toEqual([]);
    expect(queued()).toEqual([{ event: 'view_cart' }]);
  });

  it('carries at most the newest QUEUE_MAX events to the next page', () => {
    keepQueue();
    for (let i = 0; i < QUEUE_MAX + 5; i += 1) sendEvent({ event: 'e', i });
    window.dispatchEvent(new Event('pagehide'));
    const queue = stored() as { i: number }[];
    expect(queue).toHaveLength(QUEUE_MAX);
    expect(queue[0]?.i).toBe(5);
  });
});

describe('cookie policy from its content page', () => {
  it('takes the blocks, without islands or scripts', () => {
    const html = `<main><nav>crumbs</nav><div class="content-page"><div class="page-head"><h1>Cookie policy</h1></div><div class="blocks"><div data-island="PromoClicks"><span></span></div><script type="application/json">{}</script><div class="block text-box"><h2>Our cookie policy</h2><p>Text</p></div></div></div></main>`;
    expect(policyBlocks(html)).toBe('<div class="block text-box"><h2>Our cookie policy</h2><p>Text</p></div>');
    expect(policyBlocks('<main>no content page</main>')).toBeNull();
  });
});
