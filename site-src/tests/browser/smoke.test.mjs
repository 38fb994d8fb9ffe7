//! Browser smoke test: each page in PAGES, served at SITE_URL, loads in Debian's chromium with no
//! console or page errors, every island hydrates, and axe finds no accessibility violations.
//! Run: SITE_URL=http://127.0.0.1:8099 PAGES=/,/p/some-product/ npm run test:browser
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const PAGES = (process.env.PAGES ?? '')
  .split(',')
  .map((page) => page.trim())
  .filter(Boolean);
const HYDRATION_TIMEOUT_MS = Number(process.env.HYDRATION_TIMEOUT_MS ?? 15_000);

function setupProblem() {
  if (SITE_URL === '') return 'SITE_URL is not set (e.g. SITE_URL=http://127.0.0.1:8099)';
  if (PAGES.length === 0) return 'PAGES is not set (comma-separated paths, e.g. PAGES=/,/p/some-product/)';
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing: run scripts/install-chromium.sh at the repo root`;
  return null;
}

const problem = setupProblem();

describe('browser smoke', () => {
  if (problem !== null) {
    it('needs SITE_URL, PAGES and chromium', () => assert.fail(problem));
    return;
  }

  let context;
  let userDataDir;

  before(async () => {
    userDataDir = mkdtempSync(join(tmpdir(), 'storefront-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1280, height: 900 },
    });
    // These pages are checked without the locale overlay, which a visitor sees once per session
    // when their locale is not the page's (the shopper journeys test it).
    await context.addInitScript(() => window.sessionStorage.setItem('locale-prompted', '1'));
  });

  after(async () => {
    await context?.close();
    if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true });
  });

  for (const path of PAGES) {
    it(`page ${path}`, async () => {
      const page = await context.newPage();
      const consoleErrors = [];
      const pageErrors = [];
      page.on('console', (message) => {
        if (message.type() === 'error') {
          const where = message.location();
          consoleErrors.push(`${message.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
        }
      });
      page.on('pageerror', (error) => pageErrors.push(String(error.stack ?? error)));
      page.on('requestfailed', (request) =>
        consoleErrors.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
      );
      try {
        const response = await page.goto(`${SITE_URL}${path}`, { waitUntil: 'networkidle' });
        assert.ok(response !== null && response.ok(), `${path}: HTTP ${response?.status()}`);

        // Islands below the fold hydrate when visible: bring each into view.
        const islands = await page.locator('[data-island]').count();
        for (let i = 0; i < islands; i += 1) {
          await page.locator('[data-island]').nth(i).scrollIntoViewIfNeeded();
        }
        await page
          .waitForFunction(
            () => Array.from(document.querySelectorAll('[data-island]')).every((el) => el.hasAttribute('data-hydrated')),
            undefined,
            { timeout: HYDRATION_TIMEOUT_MS },
          )
          .catch(() => {});
        const states = await page.$$eval('[data-island]', (els) =>
          els.map((el) => `${el.getAttribute('data-island')}#${el.getAttribute('data-island-id')}=${el.getAttribute('data-hydrated') ?? 'pending'}`),
        );
        const notHydrated = states.filter((state) => !state.endsWith('=true'));
        await page.waitForLoadState('networkidle');

        const axe = await new AxeBuilder({ page }).analyze();
        const violations = axe.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.help}\n      ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n      ')}`,
        );

        const report = [
          notHydrated.length ? `islands not hydrated: ${notHydrated.join(', ')}` : '',
          consoleErrors.length ? `console errors:\n    ${consoleErrors.join('\n    ')}` : '',
          pageErrors.length ? `page errors:\n    ${pageErrors.join('\n    ')}` : '',
          violations.length ? `axe violations:\n    ${violations.join('\n    ')}` : '',
        ].filter(Boolean);
        console.log(`${path}: islands [${states.join(', ')}], ${consoleErrors.length} console errors, ${pageErrors.length} page errors, ${violations.length} axe violations`);
        if (report.length > 0) assert.fail(`${path}:\n  ${report.join('\n  ')}`);
      } finally {
        await page.close();
      }
    });
  }
});
