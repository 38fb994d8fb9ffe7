// Launches Debian's chromium for the browser tests (never a downloaded browser), with a fresh
// profile, and collects console errors, page errors and failed requests per page.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissing() {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing: run scripts/install-chromium.sh at the repo root`;
}

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The tag manager (loaded once a shopper accepts analytics, lib/tracking-tag.ts) is an outside
 * service this machine cannot reach: every browser gets a stand-in of its script at its address,
 * which records the container it was asked for in `window.__tagManager`.
 */
export const TAG_MANAGER = 'https://www.googletagmanager.com/gtm.js';
function fakeTagManager(route) {
  return route.fulfill({
    status: 200,
    contentType: 'application/javascript',
    body: "window.__tagManager = (window.__tagManager || []).concat(new URL(document.currentScript.src).searchParams.get('id'));",
  });
}

/**
 * Unless asked for, the visitor has already seen this session's locale overlay, has accepted
 * analytics cookies (so the cookie banner stays away and analytics events are sent; a choice the
 * test makes itself is kept) and has dismissed the newsletter modal (it never offers itself); and
 * has data saver on (no link prefetch) unless `prefetch` is set.
 */
async function skipFirstVisit(context, { localePrompt = false, cookieBanner = false, newsletter = false, prefetch = false } = {}) {
  await context.route(`${TAG_MANAGER}**`, fakeTagManager);
  if (!newsletter) await context.addInitScript(() => window.localStorage.setItem('newsletter', 'dismissed'));
  // Data saver on, so the page fetches no links ahead (lib/prefetch.ts): those requests would only
  // load the dev server under tests that are not about them.
  if (!prefetch) await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' }, configurable: true }));
  if (!localePrompt) await context.addInitScript(() => window.sessionStorage.setItem('locale-prompted', '1'));
  if (!cookieBanner) {
    await context.addInitScript(() => {
      if (!/(^|;\s*)cookie-consent=/.test(document.cookie)) document.cookie = 'cookie-consent=analytics; Path=/; SameSite=Lax';
    });
  }
}

/**
 * A persistent context on a fresh user-data dir; `close()` removes the dir too. Unless
 * `localePrompt` / `cookieBanner` / `newsletter` is set, the visitor has seen the locale overlay /
 * made a cookie choice / dismissed the newsletter modal.
 */
export async function launch(viewport = { width: 1280, height: 900 }, firstVisit = {}) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'storefront-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
  });
  await skipFirstVisit(context, firstVisit);
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One browser process for many visitors: `newContext(viewport)` is a fresh, isolated profile
 * (cookies, storage, cache) in it, much cheaper than a `launch` each. Close each context when done.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  return {
    browser,
    async newContext(viewport = { width: 1280, height: 900 }, firstVisit = {}) {
      const context = await browser.newContext({ viewport });
      await skipFirstVisit(context, firstVisit);
      return context;
    },
    close: () => browser.close(),
  };
}

/**
 * One browser for the enclosing `describe`: launched before its tests, closed after them. Returns
 * a holder whose `context` is set once launched.
 */
export function sharedBrowser(viewport, options) {
  const shared = { context: undefined, browser: undefined };
  before(async () => {
    shared.browser = await launch(viewport, options);
    shared.context = shared.browser.context;
  });
  after(async () => {
    await shared.browser?.close();
  });
  return shared;
}

/**
 * The one message the browser itself logs because this machine has no internet: asking whether
 * Google Pay can pay (the payment step's wallet check) makes chromium fetch Google's payment
 * method manifest from google.com. Not the page's error; with internet the fetch succeeds.
 */
const OFFLINE_GOOGLE_PAY = /^Unable to download payment manifest "https:\/\/google\.com\/pay"\. ERR_NAME_NOT_RESOLVED/;

/** Records every console error, uncaught page error and failed request of `page`. */
export function watchErrors(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !OFFLINE_GOOGLE_PAY.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${String(error.stack ?? error)}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // Navigations away abort in-flight requests; only real failures count.
    const reason = request.failure()?.errorText ?? '';
    if (!reason.includes('ERR_ABORTED')) errors.push(`request failed: ${request.url()} ${reason}`);
  });
  return errors;
}

const report = (violations) =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n      ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n      ')}`);

/** AxeBuilder's run: axe in every frame, finished in a helper page it opens for each call. */
async function axeViolationsInFrames(page) {
  const axe = await new AxeBuilder({ page }).analyze();
  return report(axe.violations);
}

let axeSource;

/**
 * axe-core's violations on `page` (default rules), one line per rule with up to five of its
 * nodes. Run in the page itself: the same axe-core as @axe-core/playwright's, about four times
 * faster, since AxeBuilder opens a helper page for every call to finish its run. A page with
 * iframes gets AxeBuilder's run, which checks inside them too.
 */
export async function axeViolations(page) {
  if (page.frames().length > 1) return axeViolationsInFrames(page);
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return report(
    await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
    }),
  );
}

/**
 * Waits until the page has stopped sending the visitor on: a page that redirects on the client (a
 * checkout step without a cart goes home) has loaded its successor, and the address then stayed
 * the same for `quietMs`. Checks made before that would run against a page being torn down.
 */
export async function settled(page, quietMs = 500, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const before = page.url();
    await page.waitForLoadState('load');
    await page.waitForTimeout(quietMs);
    if (page.url() === before) return page.waitForLoadState('load');
    if (Date.now() > deadline) throw new Error(`the page kept moving on (now at ${page.url()}) for ${timeout} ms`);
  }
}

/**
 * Once the page has `settled`, scrolls each island into view (those below the fold hydrate when
 * visible), waits up to `timeout` ms for all to hydrate, and returns each as
 * `Name#id=true|false|pending`, or `=hidden` for one with no box at this width (the desktop mega
 * menu on a phone: it never intersects the viewport, so it is neither fetched nor hydrated).
 */
export async function hydrateAll(page, timeout = 15_000) {
  await settled(page);
  const count = await page.locator('[data-island]').count();
  for (let i = 0; i < count; i += 1) {
    const island = page.locator('[data-island]').nth(i);
    if (await island.evaluate((el) => el.getClientRects().length === 0)) continue;
    // Playwright's scroll waits for the island to stand still; one that never does (a moving
    // ticker) is scrolled to by the DOM instead, then given two frames for its observer to see it.
    await island.scrollIntoViewIfNeeded({ timeout: 3_000 }).catch(async () => {
      await island.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    });
  }
  await page
    .waitForFunction(
      () => Array.from(document.querySelectorAll('[data-island]')).every((el) => el.hasAttribute('data-hydrated') || el.getClientRects().length === 0),
      undefined,
      { timeout },
    )
    .catch(() => {});
  return page.$$eval('[data-island]', (els) =>
    els.map((el) => {
      const state = el.getAttribute('data-hydrated') ?? (el.getClientRects().length === 0 ? 'hidden' : 'pending');
      return `${el.getAttribute('data-island')}#${el.getAttribute('data-island-id')}=${state}`;
    }),
  );
}

/**
 * Waits until the shopper shell's static panel buttons work (`data-shop-ready`) and every island
 * in or near the viewport has hydrated (those further down hydrate only when scrolled to).
 */
export async function hydrated(page, timeout = 15_000) {
  await page.waitForFunction(
    () => (document.querySelector('[data-island="ShopperShell"]') === null || document.documentElement.hasAttribute('data-shop-ready')) &&
      Array.from(document.querySelectorAll('[data-island]')).every((el) => {
      const r = el.getBoundingClientRect();
      // An island without a box (display: none at this width) never intersects, so never hydrates.
      const visible = el.getClientRects().length > 0 && r.bottom > -200 && r.top < window.innerHeight + 200;
      return !visible || el.getAttribute('data-hydrated') === 'true';
    }),
    null,
    { timeout },
  );
}

/** A new page of `context` at `url`, its errors watched, once `hydrated`: `{ page, errors }`. */
export async function openPage(context, url, timeout = 15_000) {
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  const errors = watchErrors(page);
  await page.goto(url);
  await hydrated(page, timeout);
  return { page, errors };
}
