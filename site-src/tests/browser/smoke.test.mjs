// Browser smoke test: each page in PAGES, served at SITE_URL, loads in Debian's chromium with no
// console or page errors, every island hydrates, and axe finds no accessibility violations.
// Run: SITE_URL=http://127.0.0.1:8099 PAGES=/,/p/some-product/ npm run test:browser
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { axeViolations, chromiumMissing, hydrateAll, sharedBrowser } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const PAGES = (process.env.PAGES ?? '')
  .split(',')
  .map((page) => page.trim())
  .filter(Boolean);
const HYDRATION_TIMEOUT_MS = Number(process.env.HYDRATION_TIMEOUT_MS ?? 15_000);

function setupProblem() {
  if (SITE_URL === '') return 'SITE_URL is not set (e.g. SITE_URL=http://127.0.0.1:8099)';
  if (PAGES.length === 0) return 'PAGES is not set (comma-separated paths, e.g. PAGES=/,/p/some-product/)';
  return chromiumMissing();
}

const problem = setupProblem();

describe('browser smoke', () => {
  if (problem !== null) {
    it('needs SITE_URL, PAGES and chromium', () => assert.fail(problem));
    return;
  }

  // These pages are checked without the locale overlay, which a visitor sees once per session
  // when their locale is not the page's (the shopper journeys test it).
  const shared = sharedBrowser();

  for (const path of PAGES) {
    it(`page ${path}`, async () => {
      const page = await shared.context.newPage();
      const consoleErrors = [];
      const pageErrors = [];
      page.on('console', (message) => {
        if (message.type() === 'error') {
          const where = message.location();
          consoleErrors.push(`${message.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
        }
      });
      page.on('pageerror', (error) => pageErrors.push(String(error.stack ?? error)));
      // A page may send the visitor on (a checkout step without a cart goes home): leaving
      // aborts what the first page still had in flight, which is not a failure. Only then, and
      // only ERR_ABORTED, is a failed request let through.
      let navigations = 0;
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations += 1;
      });
      page.on('requestfailed', (request) => {
        const reason = request.failure()?.errorText ?? '';
        if (navigations > 1 && reason === 'net::ERR_ABORTED') return;
        consoleErrors.push(`request failed: ${request.url()} ${reason}`);
      });
      try {
        const response = await page.goto(`${SITE_URL}${path}`, { waitUntil: 'networkidle' });
        assert.ok(response !== null && response.ok(), `${path}: HTTP ${response?.status()}`);

        const states = await hydrateAll(page, HYDRATION_TIMEOUT_MS);
        const notHydrated = states.filter((state) => !state.endsWith('=true') && !state.endsWith('=hidden'));
        await page.waitForLoadState('networkidle');

        const violations = await axeViolations(page);

        const report = [
          notHydrated.length ? `islands not hydrated: ${notHydrated.join(', ')}` : '',
          consoleErrors.length ? `console errors:\n    ${consoleErrors.join('\n    ')}` : '',
          pageErrors.length ? `page errors:\n    ${pageErrors.join('\n    ')}` : '',
          violations.length ? `axe violations:\n    ${violations.join('\n    ')}` : '',
        ].filter(Boolean);
        const landed = new URL(page.url());
        const moved = `${landed.pathname}${landed.search}` === path ? '' : ` (sent on to ${landed.pathname}${landed.search})`;
        console.log(`${path}${moved}: islands [${states.join(', ')}], ${consoleErrors.length} console errors, ${pageErrors.length} page errors, ${violations.length} axe violations`);
        if (report.length > 0) assert.fail(`${path}:\n  ${report.join('\n  ')}`);
      } finally {
        await page.close();
      }
    });
  }
});
