//! Launches Debian's chromium for the browser tests (never a downloaded browser), with a fresh
//! profile, and collects console errors, page errors and failed requests per page.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumMissing() {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing: run scripts/install-chromium.sh at the repo root`;
}

/**
 * A persistent context on a fresh user-data dir; `close()` removes the dir too. Unless
 * `localePrompt` is set, the visitor has already seen this session's locale overlay.
 */
export async function launch(viewport = { width: 1280, height: 900 }, { localePrompt = false } = {}) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'storefront-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
  });
  if (!localePrompt) await context.addInitScript(() => window.sessionStorage.setItem('locale-prompted', '1'));
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Records every console error, uncaught page error and failed request of `page`. */
export function watchErrors(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
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
