// The shell's first-visit pieces in Debian's chromium: the locale overlay (opens only when the
// visitor's locale is not the site; an unknown country keeps the shopper on the site they are on);
// layout stability on a first visit — CLS measured with PerformanceObserver('layout-shift') on
// home, a listing and a product page, ≤ 0.01, at 1280 and 375 px; cookie consent (the banner,
// analytics events queued until accepted, the choice stored and changed on /cookies); and the
// newsletter modal (a content link or the delay opens it; the email goes to the marketing-consent
// endpoint; never on checkout, never by itself again once dismissed or subscribed).
// Run against `storefront dev`: SITE_URL=http://127.0.0.1:8099 npm run test:browser:shell
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { axeViolations, chromiumMissing, hydrated, launchBrowser, TAG_MANAGER, watchErrors } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const PRODUCT = '/p/101/satin-slip-midi-dress/Black';
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 812 };
const MARKETS = ['', '/us', '/eu'];
/** Lighthouse's "good" CLS is 0.1; the shell's own budget is ten times tighter. */
const CLS_BUDGET = 0.01;
/** After hydration, long enough for the geo answer, the overlay and the countdown's first tick. */
const SETTLE_MS = 1200;

const problem = SITE_URL === '' ? 'SITE_URL is not set' : chromiumMissing();

/** Sums every layout shift not caused by input, from the first paint on (buffered entries). */
function observeLayoutShifts() {
  window.__cls = { total: 0, sources: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__cls.total += entry.value;
      window.__cls.sources.push(`${entry.value.toFixed(4)} ${entry.sources.map((s) => s.node?.className ?? s.node?.nodeName ?? '?').join(' | ')}`);
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

describe('shell: first visit (locale overlay, layout stability, cookie consent, newsletter)', { skip: problem ?? false }, () => {
  let shared;
  before(async () => {
    shared = await launchBrowser();
  });
  after(async () => {
    await shared?.close();
  });

  /** A first-visit page (no cookies, overlay not yet seen) with the CDN's geo header `country`. */
  async function firstVisit(url, { viewport = DESKTOP, country = null, newsletter = false } = {}) {
    const context = await shared.newContext(viewport, newsletter ? { newsletter: true } : { localePrompt: true, cookieBanner: true });
    if (country !== null) await context.setExtraHTTPHeaders({ 'cf-ipcountry': country });
    await context.addInitScript(observeLayoutShifts);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = watchErrors(page);
    // The locale prompt asks the API for the country (the newsletter tests have seen the prompt).
    const geo = newsletter ? null : page.waitForResponse((response) => new URL(response.url()).pathname === '/api/geo');
    await page.goto(`${SITE_URL}${url}`);
    await hydrated(page);
    await geo;
    await page.waitForTimeout(SETTLE_MS);
    return { context, page, errors };
  }

  const overlayOf = (page) => page.getByRole('dialog', { name: 'WHERE ON EARTH' });

  for (const market of MARKETS) {
    it(`5: ${market || '/'}: an unknown country never opens the overlay; the locale button pre-selects this site and START SHOPPING stays here`, async () => {
      const { context, page, errors } = await firstVisit(market || '/');
      try {
        assert.equal(await overlayOf(page).count(), 0, 'the overlay opened for an unknown country');
        await page.locator('.locale__button').click();
        const overlay = overlayOf(page);
        const site = market === '' ? { name: 'UK', currency: 'GBP' } : { name: 'Rest of the World', currency: market === '/us' ? 'USD' : 'EUR' };
        await overlay.getByText(`We think you're in ${site.name}.`).waitFor();
        await overlay.getByText("But if we're wrong you can tell us below").waitFor();
        assert.equal(await overlay.getByLabel('Currency').inputValue(), site.currency);
        await overlay.getByRole('button', { name: 'START SHOPPING' }).click();
        await page.waitForURL(`${SITE_URL}${market || '/'}`);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`5: a visitor from France on the UK site gets the overlay (Rest of the World, EUR) laid over the page, axe clean; one from GB does not (${viewport.width} px)`, async () => {
      const france = await firstVisit(PRODUCT, { viewport, country: 'FR' });
      try {
        const overlay = overlayOf(france.page);
        await overlay.getByText("We think you're in Rest of the World.").waitFor();
        assert.equal(await overlay.getByLabel('Currency').inputValue(), 'EUR');
        assert.deepEqual(await axeViolations(france.page), []);
        const cls = await france.page.evaluate(() => window.__cls);
        assert.ok(cls.total <= CLS_BUDGET, `CLS ${cls.total} with the overlay:\n${cls.sources.join('\n')}`);
        assert.deepEqual(france.errors, []);
      } finally {
        await france.context.close();
      }
      const britain = await firstVisit(PRODUCT, { viewport, country: 'GB' });
      try {
        assert.equal(await overlayOf(britain.page).count(), 0);
      } finally {
        await britain.context.close();
      }
    });
  }

  // Every page type a shopper lands on, on a first visit from abroad (the overlay opens on the UK
  // and US sites, not on /eu), with the countdown bar of the sample store inside its window.
  const cases = [
    ...MARKETS.map((market) => ({ market, viewport: MOBILE })),
    { market: '', viewport: DESKTOP },
  ];
  for (const { market, viewport } of cases) {
    it(`5: CLS ≤ ${CLS_BUDGET} on home, listing and product page, first visit from France, ${market || '/'} (${viewport.width} px)`, async () => {
      const found = [];
      for (const path of ['', '/browse/womens', PRODUCT]) {
        const { context, page, errors } = await firstVisit(`${market}${path}` || '/', { viewport, country: 'FR' });
        try {
          assert.ok(await page.locator('.countdown--live').count() > 0 || (await page.locator('.countdown').count()) === 0, 'the countdown did not show');
          const cls = await page.evaluate(() => window.__cls);
          found.push(`${`${market}${path}` || '/'}: ${cls.total.toFixed(4)}`);
          assert.ok(cls.total <= CLS_BUDGET, `CLS ${cls.total} on ${market}${path || '/'}:\n${cls.sources.join('\n')}`);
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      }
      console.log(`CLS (${viewport.width} px): ${found.join(', ')}`);
    });
  }

  const bannerOf = (page) => page.getByRole('region', { name: 'We use cookies' });
  const dataLayerEvents = (page) => page.evaluate(() => (window.dataLayer ?? []).map((e) => e.event));
  const consentCookie = async (context) => (await context.cookies()).find((c) => c.name === 'cookie-consent')?.value;

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`8c: first visit: the cookie banner over the page, axe clean; Necessary only drops the queued events and is kept; /cookies shows the policy and changes the choice (${viewport.width} px)`, async () => {
      const { context, page, errors } = await firstVisit('/browse/womens', { viewport });
      try {
        const banner = bannerOf(page);
        await banner.waitFor();
        assert.equal(await banner.evaluate((el) => getComputedStyle(el).position), 'fixed', 'the banner is laid over the page');
        const box = await banner.boundingBox();
        assert.ok(box.y + box.height <= viewport.height + 1 && box.y > viewport.height / 3, `the banner sits at the foot of the window: ${JSON.stringify(box)}`);
        assert.deepEqual(await axeViolations(page), []);
        const cls = await page.evaluate(() => window.__cls);
        assert.ok(cls.total <= CLS_BUDGET, `CLS ${cls.total} with the banner:\n${cls.sources.join('\n')}`);
        assert.deepEqual(await dataLayerEvents(page), [], 'nothing is sent before consent');

        await banner.getByRole('button', { name: 'Necessary only' }).click();
        await banner.waitFor({ state: 'detached' });
        assert.equal(await consentCookie(context), 'necessary');
        assert.deepEqual(await page.evaluate(() => [sessionStorage.getItem('analytics-queue'), window.analyticsQueue]), [null, []]);

        await page.goto(`${SITE_URL}/cookies`);
        await hydrated(page);
        const choices = page.locator('form.cookie-choices');
        await choices.getByText('Your cookie choices').waitFor();
        // The policy's text comes from the market's content page `cookie-policy`.
        await page.getByRole('heading', { name: 'Our cookie policy' }).waitFor();
        await page.getByText('Strictly necessary cookies', { exact: true }).waitFor();
        assert.equal(await bannerOf(page).count(), 0, 'no banner once a choice is stored');
        const analytics = choices.getByLabel('Analytics cookies');
        assert.equal(await analytics.isChecked(), false);
        assert.equal(await choices.getByLabel('Strictly necessary cookies (always on)').isDisabled(), true);
        assert.deepEqual(await axeViolations(page), []);
        await analytics.check();
        await choices.getByRole('button', { name: 'Save my choices' }).click();
        await choices.getByText('Your cookie choices are saved.').waitFor();
        assert.equal(await consentCookie(context), 'analytics');
        await page.reload();
        await hydrated(page);
        assert.equal(await page.locator('form.cookie-choices').getByLabel('Analytics cookies').isChecked(), true);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it("8c: an analytics event made before consent waits, and is sent once the shopper accepts on the next page, with the market's tag manager (1280 px)", async () => {
    const { context, page, errors } = await firstVisit('/');
    const tagRequests = [];
    page.on('request', (request) => {
      if (request.url().startsWith(TAG_MANAGER)) tagRequests.push(request.url());
    });
    try {
      await bannerOf(page).waitFor();
      // navigation_click from the mega menu, then the listing loads: still no consent.
      await page.locator('.mega__link', { hasText: 'Womens' }).first().click();
      await page.waitForURL(`${SITE_URL}/browse/womens`);
      await hydrated(page);
      const banner = bannerOf(page);
      await banner.waitFor();
      assert.deepEqual(await dataLayerEvents(page), []);
      // The previous page's events (its page view, the click), carried over (sessionStorage) in
      // front of this page's view.
      await page.waitForFunction(() => (window.analyticsQueue ?? []).length >= 3);
      const queued = await page.evaluate(() => (window.analyticsQueue ?? []).map((e) => `${e.event} ${e.page_path ?? e.navigation_element}`));
      assert.deepEqual(queued, ['page_view /', 'navigation_click Womens', 'page_view /browse/womens']);
      // The market's tag manager waits for consent too.
      assert.deepEqual(tagRequests, [], 'the tag manager loaded before consent');
      assert.equal(await page.evaluate(() => window.__tagManager), undefined);
      await banner.getByRole('button', { name: 'Accept all' }).click();
      await banner.waitFor({ state: 'detached' });
      assert.deepEqual(await dataLayerEvents(page), ['page_view', 'navigation_click', 'page_view', 'gtm.js']);
      assert.equal(await consentCookie(context), 'analytics');
      await page.waitForFunction(() => window.__tagManager?.length === 1);
      assert.deepEqual(await page.evaluate(() => window.__tagManager), ['GTM-MLUK24']);
      // Every market shares the choice (path /), and loads its own container.
      await page.goto(`${SITE_URL}/eu`);
      await hydrated(page);
      await page.waitForFunction(() => window.__tagManager?.length === 1);
      assert.deepEqual(await page.evaluate(() => window.__tagManager), ['GTM-MLEU24']);
      assert.equal(await bannerOf(page).count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  const newsletterOf = (page) => page.getByRole('dialog', { name: 'Sign up to our newsletter' });
  /** NEWSLETTER_DELAY_MS in lib/newsletter.ts. */
  const NEWSLETTER_DELAY_MS = 20_000;

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`15: the footer's content link opens the newsletter modal; the email goes to the marketing-consent endpoint; then it never offers itself (${viewport.width} px)`, async () => {
      const { context, page, errors } = await firstVisit('/eu/about-us', { viewport, newsletter: true });
      try {
        // On phones the footer's columns are collapsed.
        const about = page.locator('.footer-col', { hasText: 'Newsletter sign-up' });
        if (viewport === MOBILE) await about.locator('summary').click();
        await about.getByRole('link', { name: 'Newsletter sign-up' }).click();
        const modal = newsletterOf(page);
        await modal.getByLabel('Email address').waitFor();
        assert.equal(new URL(page.url()).hash, '', 'the link opens the modal instead of navigating');
        assert.deepEqual(await axeViolations(page), []);
        await modal.getByLabel('Email address').fill('not-an-email');
        await modal.getByRole('button', { name: 'SIGN UP' }).click();
        await modal.getByText('Please enter a valid email address').waitFor();
        const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/marketing-consent');
        const email = `newsletter.${Date.now()}.${viewport.width}@example.com`;
        await modal.getByLabel('Email address').fill(email);
        await modal.getByRole('button', { name: 'SIGN UP' }).click();
        const request = await sent;
        assert.deepEqual(request.postDataJSON(), { email, category: 'marketing_email', action: 'accept' });
        assert.equal(new URL(request.url()).searchParams.get('market'), 'eu');
        await modal.getByText('Thank you for signing up. Please check your inbox to confirm your subscription.').waitFor();
        assert.equal(await page.evaluate(() => localStorage.getItem('newsletter')), 'subscribed');
        await page.keyboard.press('Escape');
        await modal.waitFor({ state: 'detached' });
        assert.equal(await page.evaluate(() => localStorage.getItem('newsletter')), 'subscribed', 'closing keeps the subscription');
        // A subscriber's next page: the delay passes and nothing opens.
        await page.clock.install();
        await page.goto(`${SITE_URL}/eu`);
        await hydrated(page);
        await page.clock.fastForward(NEWSLETTER_DELAY_MS + 1000);
        await page.waitForTimeout(300);
        assert.equal(await newsletterOf(page).count(), 0);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('15: after the delay the modal offers itself once; dismissed, never again; never on checkout (1280 px)', async () => {
    const context = await shared.newContext(DESKTOP, { newsletter: true });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      // Not on checkout, even after the delay. (Checkout needs a bag: without one it sends the
      // shopper home, so a line goes in first, well inside the delay.)
      await page.goto(`${SITE_URL}/p/101/satin-slip-midi-dress/Emerald_Green`);
      await hydrated(page);
      await page.locator('.product-options').getByText('12', { exact: true }).click();
      await page.locator('.product-options').getByText('Petite', { exact: true }).click();
      await page.locator('.product-actions__add:not([disabled])').click();
      await page.getByRole('dialog', { name: 'Added to bag' }).waitFor();
      await page.clock.install();
      await page.goto(`${SITE_URL}/checkout-identity`);
      await hydrated(page);
      await page.locator('[data-checkout-step="identity"]').waitFor();
      await page.clock.fastForward(NEWSLETTER_DELAY_MS + 1000);
      await page.waitForTimeout(300);
      assert.equal(new URL(page.url()).pathname, '/checkout-identity');
      assert.equal(await newsletterOf(page).count(), 0, 'the newsletter modal opened on checkout');
      // A listing: nothing before the delay, the modal after it.
      await page.goto(`${SITE_URL}/browse/womens`);
      await hydrated(page);
      await page.clock.fastForward(NEWSLETTER_DELAY_MS - 2000);
      await page.waitForTimeout(300);
      assert.equal(await newsletterOf(page).count(), 0, 'opened before the delay');
      await page.clock.fastForward(3000);
      const modal = newsletterOf(page);
      await modal.waitFor();
      await modal.getByRole('button', { name: 'Close' }).click();
      await modal.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => localStorage.getItem('newsletter')), 'dismissed');
      await page.goto(`${SITE_URL}/`);
      await hydrated(page);
      await page.clock.fastForward(NEWSLETTER_DELAY_MS + 1000);
      await page.waitForTimeout(300);
      assert.equal(await newsletterOf(page).count(), 0, 'offered again after a dismissal');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

describe('shell: the top bar, the phone header and the size guide (Find out more, search overlay, mobile menu)', { skip: problem ?? false }, () => {
  let shared;
  before(async () => {
    shared = await launchBrowser();
  });
  after(async () => {
    await shared?.close();
  });

  /** A returning visitor's page (locale and cookie choice made), hydrated. */
  async function visit(url, viewport) {
    const context = await shared.newContext(viewport);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = watchErrors(page);
    const response = await page.goto(`${SITE_URL}${url}`);
    await hydrated(page);
    return { context, page, errors, response };
  }

  for (const market of MARKETS) {
    it(`10: ${market || '/'}: the top bar's Find out more opens the market's app page (1280 px)`, async () => {
      const { context, page, errors } = await visit(market || '/', DESKTOP);
      try {
        const link = page.locator('.topbar__app a', { hasText: 'Find out more' });
        assert.equal(await link.getAttribute('href'), `${market}/app`);
        const [response] = await Promise.all([page.waitForNavigation(), link.click()]);
        assert.ok(response?.ok(), `${market}/app: HTTP ${response?.status()}`);
        await page.getByRole('heading', { level: 1, name: 'The Maison Lark app' }).waitFor();
        await page.getByText('Add to Home Screen').first().waitFor({ state: 'attached' });
        assert.deepEqual(await axeViolations(page), []);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('a phone neither fetches nor hydrates the desktop mega menu; a window widened past 768 px hydrates it (375 → 1280 px)', async () => {
    const context = await shared.newContext(MOBILE);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = watchErrors(page);
    const chunks = [];
    page.on('request', (request) => {
      const name = new URL(request.url()).pathname.split('/').pop() ?? '';
      if (name.startsWith('mega-menu')) chunks.push(name);
    });
    try {
      await page.goto(`${SITE_URL}/browse/womens`);
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      const megaMenu = page.locator('[data-island="MegaMenu"]');
      assert.equal(await megaMenu.getAttribute('data-hydrated'), null, 'the hidden mega menu hydrated on a phone');
      assert.deepEqual(chunks, [], 'the mega menu chunk was fetched on a phone');
      await page.setViewportSize(DESKTOP);
      await page.waitForFunction(() => document.querySelector('[data-island="MegaMenu"]')?.getAttribute('data-hydrated') === 'true');
      assert.equal(chunks.length, 1, `${chunks}`);
      // Hydrated, the island opens a panel from its toggle.
      await page.locator('.mega__toggle').first().click();
      await page.locator('.mega__item--open .mega__panel').first().waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it("13: on a phone the search overlay's close button stays clear of the field and its clear button (375 px)", async () => {
    const { context, page, errors } = await visit('/', MOBILE);
    try {
      await page.locator('.header-action--search').click();
      const input = page.getByRole('searchbox', { name: 'Search' });
      await input.fill('dress');
      const field = await input.boundingBox();
      const close = await page.locator('.modal--overlay .modal__close').boundingBox();
      assert.ok(field !== null && close !== null);
      const overlaps = field.x < close.x + close.width && close.x < field.x + field.width && field.y < close.y + close.height && close.y < field.y + field.height;
      assert.ok(!overlaps, `the close button ${JSON.stringify(close)} overlaps the field ${JSON.stringify(field)}`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('13: the mobile menu dims the page behind it, and a tap there closes it (375 px)', async () => {
    const { context, page, errors } = await visit('/about-us', MOBILE);
    try {
      const menu = page.locator('details.mnav');
      assert.equal(await menu.evaluate((el) => getComputedStyle(el, '::before').content), 'none', 'a backdrop while closed');
      await page.locator('.mnav__toggle').click();
      await page.waitForFunction(() => document.querySelector('details.mnav')?.open === true);
      const backdrop = await menu.evaluate((el) => {
        const style = getComputedStyle(el, '::before');
        return { content: style.content, background: style.backgroundColor, position: style.position };
      });
      assert.deepEqual(backdrop, { content: '""', background: 'rgba(0, 0, 0, 0.45)', position: 'absolute' });
      assert.deepEqual(await axeViolations(page), []);
      // A tap on the dimmed page, just above the bottom bar.
      const bar = await page.locator('.bottom-bar').boundingBox();
      const panel = await page.locator('.mnav__panel').boundingBox();
      assert.ok(bar !== null && panel !== null);
      const y = bar.y - 8;
      assert.ok(y > panel.y + panel.height, `the menu (${JSON.stringify(panel)}) leaves no dimmed page above the bottom bar (${JSON.stringify(bar)})`);
      await page.mouse.click(MOBILE.width / 2, y);
      await page.waitForFunction(() => document.querySelector('details.mnav')?.open === false);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  for (const [control, dialog] of [
    ['Basket', 'SHOPPING BAG'],
    ['Wishlist', 'WISHLIST'],
    ['Account', 'Sign in'],
  ]) {
    it(`13: opening the ${dialog.toLowerCase()} from the bottom bar closes the mobile menu (375 px)`, async () => {
      const { context, page, errors } = await visit('/about-us', MOBILE);
      try {
        await page.locator('.mnav__toggle').click();
        await page.waitForFunction(() => document.querySelector('details.mnav')?.open === true);
        await page.locator('.bottom-bar__item', { hasText: control }).click();
        const opened = page.getByRole('dialog', { name: dialog });
        await opened.waitFor();
        await page.waitForFunction(() => document.querySelector('details.mnav')?.open === false);
        assert.equal(await page.locator('.mnav__panel').isVisible(), false);
        await opened.getByRole('button', { name: 'Close' }).first().click();
        await opened.waitFor({ state: 'detached' });
        assert.equal(await page.locator('details.mnav').evaluate((el) => el.open), false, 'the menu came back after the dialog closed');
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  const SIZE_TABLES = { '': ['UK size', 'Bust (cm)'], '/us': ['US size', 'Bust (in)'], '/eu': ['EU size', 'Bust (cm)'] };
  for (const [market, viewport] of [['', DESKTOP], ['', MOBILE], ['/us', DESKTOP], ['/eu', MOBILE]]) {
    it(`8a: ${market || '/'}: the product page's Size guide opens the market's size tables in a dialog; the page stays put (${viewport.width} px)`, async () => {
      const { context, page, errors } = await visit(`${market}${PRODUCT}?Size=10`, viewport);
      try {
        await page.waitForSelector('html[data-shop-ready]');
        const link = page.locator('.product-options__size-guide');
        await link.scrollIntoViewIfNeeded();
        const before = { url: page.url(), y: await page.evaluate(() => window.scrollY) };
        await link.click();
        const dialog = page.getByRole('dialog', { name: 'Size guide' });
        await dialog.locator('table').first().waitFor();
        const headers = await dialog.locator('th').allInnerTexts();
        for (const h of SIZE_TABLES[market]) assert.ok(headers.includes(h), `${h} in ${headers}`);
        // The lengths with their codes.
        const codes = await dialog.locator('table').last().locator('tbody tr td:first-child').allInnerTexts();
        assert.deepEqual(codes, ['P', 'S', 'R', 'L']);
        // The tables line up with the dialog's title, and one section follows the next closely
        // (no page gutters or page section spacing inside the panel).
        const layout = await dialog.evaluate((panel) => {
          const left = (el) => el.getBoundingClientRect().left;
          const headings = Array.from(panel.querySelectorAll('.size-guide__body h2'));
          return {
            title: left(panel.querySelector('.modal__title')),
            heading: left(headings[0]),
            table: left(panel.querySelector('.size-guide__body table')),
            gap: headings[1].getBoundingClientRect().top - headings[0].parentElement.parentElement.getBoundingClientRect().bottom,
          };
        });
        assert.equal(layout.heading, layout.title, JSON.stringify(layout));
        assert.equal(layout.table, layout.title, JSON.stringify(layout));
        assert.ok(layout.gap <= 40, JSON.stringify(layout));
        assert.equal(page.url(), before.url, 'the page did not move to the guide');
        assert.equal(await page.evaluate(() => window.scrollY), before.y);
        assert.deepEqual(await axeViolations(page), []);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // The size chosen before is still chosen, and focus is back on the link.
        assert.match(page.url(), /Size=10/);
        assert.equal(await page.evaluate(() => document.activeElement?.className), 'product-options__size-guide');
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('8a: /size-guide is a content page with the same tables, for a shopper who opens the link itself', async () => {
    const { context, page, errors, response } = await visit('/size-guide', DESKTOP);
    try {
      assert.ok(response?.ok());
      await page.getByRole('heading', { level: 1, name: 'Size guide' }).waitFor();
      assert.equal(await page.locator('main table').count(), 3);
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  /** Whether the progress bar was ever shown on `page`, from now on. */
  const watchProgress = (page) =>
    page.evaluate(() => {
      window.__progressShown = false;
      new MutationObserver(() => {
        if (document.querySelector('.progress-bar[data-active]') !== null) window.__progressShown = true;
      }).observe(document.body, { attributes: true, subtree: true, childList: true });
    });

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`progress bar: a data load longer than 200 ms shows the bar over the top edge until it ends; a quick one shows nothing (${viewport.width} px)`, async () => {
      const context = await shared.newContext(viewport);
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        const errors = watchErrors(page);
        let delay = 0;
        await page.route(/\/api\/cart\/items\?/, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, delay));
          await route.continue();
        });
        await page.goto(`${SITE_URL}${PRODUCT}`);
        await hydrated(page);
        await page.locator('html[data-shop-ready]').waitFor({ state: 'attached' });
        await page.locator('[data-island="ProductActions"]').scrollIntoViewIfNeeded();
        // On a phone the options hydrate only once scrolled to: a choice made before is lost.
        await page.waitForFunction(() =>
          ['ProductOptions', 'ProductActions'].every((name) => document.querySelector(`[data-island="${name}"]`)?.getAttribute('data-hydrated') === 'true'),
        );
        await page.locator('.product-options').getByText('12', { exact: true }).click();
        await page.locator('.product-options').getByText('Regular', { exact: true }).click();
        // Quick: the bag answers at once, and no bar shows.
        await watchProgress(page);
        await page.locator('.product-actions__add:not([disabled])').click();
        const popup = page.getByRole('dialog', { name: 'Added to bag' });
        await popup.waitFor();
        await page.waitForTimeout(400);
        assert.equal(await page.evaluate(() => window.__progressShown), false, 'a quick load showed the bar');
        await page.keyboard.press('Escape');
        await popup.waitFor({ state: 'detached' });
        // Slow: 1.5 s for the answer; the bar shows, laid over the top edge, then goes.
        delay = 1500;
        await page.locator('.product-actions__add:not([disabled])').click();
        const bar = page.locator('.progress-bar[data-active]');
        await bar.waitFor({ state: 'attached', timeout: 1000 });
        const box = await bar.boundingBox();
        // Across the window (less its scroll bar while the page has one).
        assert.deepEqual([box.x, box.y, box.height], [0, 0, 3]);
        assert.ok(box.width > viewport.width - 20 && box.width <= viewport.width, `width ${box.width}`);
        assert.equal(await bar.evaluate((el) => getComputedStyle(el).position), 'fixed');
        assert.equal(await bar.getAttribute('aria-hidden'), 'true');
        await popup.waitFor();
        await bar.waitFor({ state: 'detached', timeout: 1000 });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }

  it('link prefetch: the shop pages linked in view are fetched ahead when idle (at most 12); none with data saver or on 2g (1280 px)', async () => {
    for (const [label, connection, expectAny] of [
      ['4g', null, true],
      ['data saver', { saveData: true, effectiveType: '4g' }, false],
      ['2g', { saveData: false, effectiveType: '2g' }, false],
    ]) {
      const context = await shared.newContext(DESKTOP, { prefetch: true });
      try {
        if (connection !== null) await context.addInitScript((value) => Object.defineProperty(navigator, 'connection', { value, configurable: true }), connection);
        const page = await context.newPage();
        const errors = watchErrors(page);
        const fetched = [];
        page.on('request', (request) => {
          if (request.resourceType() !== 'document' && request.headers()['sec-purpose']?.includes('prefetch')) fetched.push(request.url());
        });
        await page.goto(`${SITE_URL}/browse/womens`);
        await hydrated(page);
        await page.waitForTimeout(3000);
        const hints = await page.evaluate(() => Array.from(document.querySelectorAll('link[rel="prefetch"]')).map((el) => el.href));
        if (expectAny) {
          assert.ok(hints.length > 0 && hints.length <= 12, `${label}: ${hints.length} prefetched`);
          for (const href of hints) assert.ok(href.startsWith(`${SITE_URL}/`) && !href.includes('/api/'), href);
          // Pointing at a link fetches it at once, past the cap.
          const card = page.locator('main a[href^="/p/"]').last();
          await card.scrollIntoViewIfNeeded();
          await card.hover();
          const target = new URL(await card.getAttribute('href'), SITE_URL).href;
          await page.waitForFunction((href) => Array.from(document.querySelectorAll('link[rel="prefetch"]')).some((el) => el.href === href), target);
        } else {
          assert.deepEqual(hints, [], `${label}: prefetched`);
          assert.deepEqual(fetched, []);
        }
        assert.deepEqual(errors, [], label);
      } finally {
        await context.close();
      }
    }
  });

  it("a screen's script that fails to load: the page loads again once, then shows the error page's state (1280 px)", async () => {
    const context = await shared.newContext(DESKTOP);
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors = watchErrors(page);
      // The /bag screen's chunk is gone, as after a deploy that replaced the hashed files.
      let refused = 0;
      await page.route(/\/assets\/bag-[^/]+\.js$/, (route) => {
        refused += 1;
        return route.fulfill({ status: 404, body: '' });
      });
      let loads = 0;
      page.on('load', () => {
        loads += 1;
      });
      await page.goto(`${SITE_URL}/bag`);
      await page.getByRole('heading', { name: 'An error occured' }).waitFor();
      await page.waitForTimeout(500);
      assert.equal(loads, 2, 'one reload, no more');
      assert.ok(refused >= 2, `the chunk was asked for ${refused} times`);
      assert.deepEqual(await axeViolations(page), []);
      // The only errors are the missing chunk's, reported by the browser and the islands.
      assert.ok(errors.length > 0 && errors.every((e) => /bag-[^/]+\.js|Failed to load resource|dynamically imported module|\[islands\]|error occured/i.test(e)), errors.join('\n'));
      // A minute later the reload may happen again (not waited for here: the rule is in vitest).
    } finally {
      await context.close();
    }
  });
});
