//! Shopper journeys in Debian's chromium against the built sample store and the API on loopback
//! (fresh SQLite database): bag, stock rules, wishlist merge, registration and sign-in, password
//! reset with the token from the API's outbox, and the locale switch. Journeys 1 and 3 also at 375 px.
//! Run: SITE_URL=http://127.0.0.1:8099 API_DB=/path/to/dev.db npm run test:journeys
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { chromiumMissing, launch, watchErrors } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const PRODUCT = '/p/101/satin-slip-midi-dress/Emerald_Green';
const TIMEOUT = 15_000;

const problem = SITE_URL === '' ? 'SITE_URL is not set' : chromiumMissing();

/** Opens a page at `path` and waits until every island on it has hydrated. */
async function open(context, path) {
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors = watchErrors(page);
  await page.goto(`${SITE_URL}${path}`);
  await hydrated(page);
  return { page, errors };
}

async function hydrated(page) {
  await page.waitForFunction(
    () => Array.from(document.querySelectorAll('[data-island]')).every((el) => {
      const r = el.getBoundingClientRect();
      const visible = r.bottom > -200 && r.top < window.innerHeight + 200;
      return !visible || el.getAttribute('data-hydrated') === 'true';
    }),
    null,
    { timeout: TIMEOUT },
  );
}

async function choose(page, label) {
  await page.locator('.product-options').getByText(label, { exact: true }).click();
}

function journey(name, viewport, run) {
  it(`${name} (${viewport.width} px)`, async () => {
    const browser = await launch(viewport);
    try {
      await run(browser.context);
    } finally {
      await browser.close();
    }
  });
}

const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 812 };

describe('shopper journeys', () => {
  if (problem !== null) {
    it('needs SITE_URL and chromium', () => assert.fail(problem));
    return;
  }

  for (const viewport of [DESKTOP, MOBILE]) {
    journey('1: home → category → product → size → add → popup → bag → quantity → remove → empty', viewport, async (context) => {
      const { page, errors } = await open(context, '/');
      await page.locator('a[href="/browse/womens"]').filter({ visible: true }).first().click();
      await page.waitForURL(/\/browse\/womens$/);
      await page.locator(`a[href="${PRODUCT}"]`).filter({ visible: true }).first().click();
      await page.waitForURL(new RegExp(`${PRODUCT}$`));
      await hydrated(page);
      const add = page.locator('.product-actions__add');
      assert.equal(await add.isDisabled(), true, 'Add to bag waits for a size');
      await choose(page, '10');
      await choose(page, 'Regular');
      assert.match(page.url(), /Size=10&Length=Regular/);
      await add.click();
      const popup = page.getByRole('dialog', { name: 'Added to bag' });
      await popup.waitFor();
      assert.match(await popup.innerText(), /Satin Slip Midi Dress/);
      assert.match(await popup.innerText(), /Size:\s*10/);
      assert.match(await popup.innerText(), /Length:\s*Regular/);
      await popup.getByRole('link', { name: 'View Bag (1)' }).click();
      await page.waitForURL(/\/bag$/);
      await hydrated(page);
      const line = page.locator('.bag-line');
      await line.waitFor();
      const subtotal = page.locator('[data-subtotal]');
      const before = await subtotal.innerText();
      await page.getByRole('button', { name: 'Increase quantity' }).click();
      await page.waitForFunction((was) => document.querySelector('[data-subtotal]')?.textContent !== was, before);
      assert.match(await page.locator('.qty__value').innerText(), /2/);
      await page.getByRole('button', { name: /Remove/ }).click();
      await page.getByText('Your shopping bag is empty').waitFor();
      assert.equal(await page.locator('.header-action__count').isHidden(), true, 'no badge on an empty bag');
      assert.deepEqual(errors, []);
    });
  }

  journey('2: a sold-out size cannot be added; a low-stock message shows', DESKTOP, async (context) => {
    const { page, errors } = await open(context, PRODUCT);
    const add = page.locator('.product-actions__add');
    await choose(page, '8');
    await choose(page, 'Petite');
    await page.getByText('Out of stock').waitFor();
    assert.equal(await add.isDisabled(), true);
    assert.equal(await add.innerText(), 'SOLD OUT');
    await choose(page, '10');
    await choose(page, 'Long');
    await page.getByText('There are less than 5 of these left').waitFor();
    assert.equal(await add.isDisabled(), false);
    assert.deepEqual(errors, []);
  });
});
