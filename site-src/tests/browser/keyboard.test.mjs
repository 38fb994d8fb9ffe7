// Keyboard-only use of the built sample store in Debian's chromium (issue 5: "every control is
// reachable and works; focus is trapped in open modals and sidebars, and returned when they close"):
//  - 1280 px, every market: the header's search, bag, wishlist and locale controls reached with Tab
//    and opened with Enter; the mega menu's toggle; the account link followed;
//  - 375 px, every market: the mobile menu (its toggle and the bottom bar's Menu link; variant one's
//    layers, variant two's tabs), and the bottom bar's Account (login modal), Wishlist and Basket;
//  - the product page: colour, size and length by keyboard, Add to bag, the added-to-bag popup, the
//    wishlist toggle, then the wishlist's Add to cart (focus kept while the bag loads);
//  - a listing: the mobile filter panel (375 px) and the desktop filter sidebar (1280 px).
// Every dialog: focus moves in when it opens, 30 Tabs and 30 Shift+Tabs cycle inside it (over
// visible controls only), Escape closes it and focus returns to the control that opened it.
// Run: SITE_URL=http://127.0.0.1:8099 npm run test:browser:keyboard
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { axeViolations, chromiumMissing, openPage, sharedBrowser } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const MARKETS = ['', '/us', '/eu'];
const PRODUCT = '/p/101/satin-slip-midi-dress/Emerald_Green';
const LISTING = '/browse/womens';
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 375, height: 812 };
const PRESSES = 30;

const problem = SITE_URL === '' ? 'SITE_URL is not set (e.g. SITE_URL=http://127.0.0.1:8099)' : chromiumMissing();

/**
 * Where focus is, relative to `root` (null: anywhere): runs in the page. `inside` is false on the
 * body (focus dropped), `visible` false for a control the shopper cannot see.
 */
function focusIn(root) {
  const el = document.activeElement;
  const box = el?.getBoundingClientRect();
  const label = el === null ? 'nothing' : `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''}`;
  const text = (el?.getAttribute('aria-label') ?? el?.getAttribute('value') ?? el?.textContent ?? '').trim().slice(0, 40);
  return {
    inside: el !== null && el !== document.body && (root === null || root.contains(el)),
    // Shown, and in the viewport (not, say, on a menu layer slid off to the side).
    visible:
      el instanceof HTMLElement && el.checkVisibility({ visibilityProperty: true }) &&
      box.right > 0 && box.bottom > 0 && box.left < window.innerWidth && box.top < window.innerHeight,
    name: `${label} "${text}"`,
  };
}

const focusedName = async (page) => (await page.evaluate(focusIn, null)).name;

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector` and is visible:
 * the proof that a control is reachable by keyboard. Fails after `max` presses.
 */
async function tabTo(page, selector, { back = false, max = 250 } = {}) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const found = await page.evaluate((s) => {
      const el = document.activeElement;
      return el instanceof HTMLElement && el.matches(s) && el.checkVisibility();
    }, selector);
    if (found) return;
  }
  assert.fail(`${selector} not reached in ${max} ${back ? 'Shift+Tab' : 'Tab'} presses; focus is on ${await focusedName(page)}`);
}

/** Waits (briefly: focus moves in an effect after the render) until focus is inside `dialog`. */
async function expectFocusIn(page, dialog) {
  const handle = await dialog.elementHandle();
  await page.waitForFunction((el) => el.contains(document.activeElement) && document.activeElement !== document.body, handle, { timeout: 3_000 }).catch(() => {});
  const where = await dialog.evaluate(focusIn);
  assert.ok(where.inside, `focus did not move into the dialog on open: it is on ${where.name}`);
}

/**
 * 30 Tabs, then 30 Shift+Tabs (more in a dialog with more controls, so that the cycle comes round):
 * focus is inside `dialog` and on a visible control after each, and comes round again (fewer
 * distinct stops than presses: the cycle wraps, it does not just run on).
 */
async function expectTrapped(page, dialog) {
  const controls = await dialog.evaluate(
    (el) => Array.from(el.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')).filter((c) => c.checkVisibility()).length,
  );
  const presses = Math.max(PRESSES, controls + 2);
  for (const key of ['Tab', 'Shift+Tab']) {
    const stops = new Set();
    for (let i = 1; i <= presses; i += 1) {
      await page.keyboard.press(key);
      const where = await dialog.evaluate(focusIn);
      assert.ok(where.inside, `${key} #${i} left the dialog: focus is on ${where.name}`);
      assert.ok(where.visible, `${key} #${i} focused a control that cannot be seen: ${where.name}`);
      stops.add(where.name);
    }
    assert.ok(stops.size >= 2, `${key} never moved: ${[...stops]}`);
    assert.ok(stops.size < presses, `${key} did not wrap round within ${presses} presses: ${stops.size} stops`);
  }
}

/** Closes `dialog` with `key` (pressed where focus is) and checks focus went back to `opener`. */
async function expectClosedBackTo(page, dialog, opener, key = 'Escape') {
  await page.keyboard.press(key);
  await dialog.waitFor({ state: 'hidden' });
  const back = await opener.evaluate((el) => el === document.activeElement);
  assert.ok(back, `focus did not return to the opener after ${key}: it is on ${await focusedName(page)}`);
}

/** The whole contract for one dialog, opened by pressing Enter on the control `tabTo` reaches. */
async function checkDialog(page, { opener, dialog, back = false, ready }) {
  await tabTo(page, opener, { back });
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await expectFocusIn(page, dialog);
  if (ready !== undefined) await ready();
  await expectTrapped(page, dialog);
  await expectClosedBackTo(page, dialog, page.locator(opener).filter({ visible: true }));
}

describe('keyboard', () => {
  if (problem !== null) {
    it('needs SITE_URL and chromium', () => assert.fail(problem));
    return;
  }

  describe(`header at ${DESKTOP.width} px`, () => {
    const shared = sharedBrowser(DESKTOP);

    for (const market of MARKETS) {
      it(`${market || '/'}: search, bag, wishlist and locale open by keyboard, trap focus, close on Escape and give focus back`, async () => {
        const { page, errors } = await openPage(shared.context, `${SITE_URL}${market}/`);
        const search = page.getByRole('dialog', { name: 'Search' });
        await checkDialog(page, {
          opener: '.header-action--search',
          dialog: search,
          // With results the dialog has its most controls: chips and product links.
          ready: async () => {
            await page.keyboard.type('dress');
            await search.getByRole('heading', { name: 'Product Matches' }).waitFor();
          },
        });
        await checkDialog(page, { opener: '.header-action--bag', dialog: page.getByRole('dialog', { name: 'SHOPPING BAG' }) });
        // The wishlist and locale buttons come before the search icon: Shift+Tab back to them.
        await checkDialog(page, { opener: '.header-action--wishlist', back: true, dialog: page.getByRole('dialog', { name: 'WISHLIST' }) });
        const locale = page.getByRole('dialog', { name: 'WHERE ON EARTH' });
        await checkDialog(page, {
          opener: '.locale__button',
          back: true,
          dialog: locale,
          ready: () => locale.getByLabel('Country').waitFor(),
        });
        // The overlay replaces the no-JavaScript list: the <details> stays shut.
        assert.equal(await page.locator('details.locale').getAttribute('open'), null);

        // The close button, by keyboard, also gives focus back (focus starts on it in the bag).
        await tabTo(page, '.header-action--bag');
        await page.keyboard.press('Enter');
        const bag = page.getByRole('dialog', { name: 'SHOPPING BAG' });
        await bag.waitFor();
        await expectFocusIn(page, bag);
        assert.match(await focusedName(page), /modal__close/);
        await expectClosedBackTo(page, bag, page.locator('.header-action--bag'), 'Enter');

        // The mega menu: its toggle opens a panel whose links Tab reaches; Escape closes it.
        await tabTo(page, '.mega__toggle');
        await page.keyboard.press('Enter');
        const item = page.locator('.mega__item--open');
        await item.waitFor();
        await page.keyboard.press('Tab');
        const inPanel = await item.locator('.mega__panel').evaluate(focusIn);
        assert.ok(inPanel.inside && inPanel.visible, `Tab after the mega menu toggle went to ${inPanel.name}`);
        await page.keyboard.press('Escape');
        await item.waitFor({ state: 'detached' });
        assert.match(await focusedName(page), /mega__toggle/);

        // The account link is a plain link: Enter follows it.
        await tabTo(page, '.header-action--account', { back: true });
        await page.keyboard.press('Enter');
        await page.waitForURL(`${SITE_URL}${market}/login`);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  });

  describe(`mobile at ${MOBILE.width} px`, () => {
    const shared = sharedBrowser(MOBILE);

    for (const market of MARKETS) {
      it(`${market || '/'}: the mobile menu opens by keyboard and its controls work`, async () => {
        const { page, errors } = await openPage(shared.context, `${SITE_URL}${market}/`);
        const menu = page.locator('details.mnav');
        await tabTo(page, '.mnav__toggle');
        await page.keyboard.press('Enter');
        await page.locator('details.mnav[open]').waitFor();
        await page.keyboard.press('Tab');
        assert.ok((await menu.evaluate(focusIn)).inside, `Tab after opening the menu went to ${await focusedName(page)}`);

        if ((await page.locator('.mnav--one').count()) > 0) {
          // Variant one: a layer slides in; focus goes with it and never to the layer slid away.
          await tabTo(page, '.mnav__next');
          const opened = await focusedName(page);
          await page.keyboard.press('Enter');
          const layer = page.locator('.mnav__layer[data-depth="1"]');
          await layer.waitFor();
          // Once the slide has finished, the layer slid away is off screen (mid-slide it is not).
          await page.waitForFunction(() => document.querySelector('.mnav__layers')?.getAnimations().length === 0);
          await page.waitForFunction(() => document.activeElement?.classList.contains('mnav__back'), null, { timeout: 3_000 }).catch(() => {});
          assert.match(await focusedName(page), /mnav__back/, 'focus moves to the new layer\'s Back button');
          for (let i = 0; i < 8; i += 1) {
            await page.keyboard.press('Shift+Tab');
            const where = await page.evaluate(focusIn, null);
            assert.ok(where.visible, `Shift+Tab #${i + 1} focused a control that cannot be seen: ${where.name}`);
            if (/mnav__toggle/.test(where.name)) break;
          }
          await tabTo(page, '.mnav__back');
          await page.keyboard.press('Enter');
          await layer.waitFor({ state: 'detached' });
          await page.waitForFunction(() => document.activeElement?.classList.contains('mnav__next'), null, { timeout: 3_000 }).catch(() => {});
          assert.equal(await focusedName(page), opened, 'Back returns focus to the item that opened the layer');
        } else {
          // Variant two: category tabs (pressed state) and sections (disclosures).
          await tabTo(page, '.mnav2__tab[aria-pressed="false"]');
          await page.keyboard.press('Enter');
          assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-pressed')), 'true');
          await tabTo(page, '.mnav2__summary');
          const section = page.locator('.mnav2__section').filter({ has: page.locator('.mnav2__summary:focus') });
          const wasOpen = (await section.getAttribute('open')) !== null;
          await page.keyboard.press('Enter');
          assert.equal((await section.getAttribute('open')) !== null, !wasOpen, 'Enter toggles the section');
        }
        await tabTo(page, '.mnav__toggle', { back: true });
        await page.keyboard.press('Enter');
        await page.locator('details.mnav:not([open])').waitFor();

        // The bottom bar's Menu link opens it too, and Tab goes on into it.
        await tabTo(page, '.bottom-bar__item[data-open-menu]', { back: true });
        await page.keyboard.press('Enter');
        await page.locator('details.mnav[open]').waitFor();
        await page.keyboard.press('Tab');
        assert.ok((await menu.evaluate(focusIn)).inside, `Tab after the Menu link went to ${await focusedName(page)}`);
        assert.deepEqual(errors, []);
        await page.close();
      });

      it(`${market || '/'}: the bottom bar's Account (signed out), Wishlist and Basket open dialogs that trap focus`, async () => {
        const { page, errors } = await openPage(shared.context, `${SITE_URL}${market}/`);
        // The bar is last on the page: Shift+Tab from the top reaches it soonest (Basket, Account).
        await checkDialog(page, { opener: '.bottom-bar [data-account-link]', back: true, dialog: page.getByRole('dialog', { name: 'Sign in' }) });
        await checkDialog(page, { opener: '.bottom-bar [data-open-wishlist]', back: true, dialog: page.getByRole('dialog', { name: 'WISHLIST' }) });
        await checkDialog(page, { opener: '.bottom-bar [data-bag-link]', dialog: page.getByRole('dialog', { name: 'SHOPPING BAG' }) });
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    it(`${LISTING}: the filter panel opens by keyboard, traps focus, filters with Space, closes on Escape and Done`, async () => {
      const { page, errors } = await openPage(shared.context, `${SITE_URL}${LISTING}`);
      await page.locator('[data-island="Listing"][data-hydrated="true"]').waitFor();
      const panel = page.getByRole('dialog', { name: 'Filter' });
      await checkDialog(page, { opener: '.plp-toolbar__filter', dialog: panel });

      await tabTo(page, '.plp-toolbar__filter', { back: true });
      await page.keyboard.press('Enter');
      await expectFocusIn(page, panel);
      assert.deepEqual(await axeViolations(page), [], 'the open panel is a well-formed dialog');
      await tabTo(page, '.facet--size .facet__input:not([disabled])');
      const size = await page.evaluate(() => document.activeElement?.getAttribute('value'));
      const answered = page.waitForResponse((response) => response.url().includes('/api/listing'));
      await page.keyboard.press('Space');
      await answered;
      await page.waitForURL((url) => url.searchParams.get('filters[Size]') === size);
      await page.locator('#plp-results[aria-busy="false"]').waitFor();
      assert.ok((await panel.evaluate(focusIn)).inside, `focus left the panel when the results came: ${await focusedName(page)}`);
      await expectTrapped(page, panel);
      await tabTo(page, '.facets__actions .btn--primary');
      await expectClosedBackTo(page, panel, page.locator('.plp-toolbar__filter'), 'Enter');
      assert.deepEqual(errors, []);
      await page.close();
    });
  });

  describe(`product page and listing at ${DESKTOP.width} px`, () => {
    const shared = sharedBrowser(DESKTOP);

    it(`${PRODUCT}: colour, size and length by keyboard, Add to bag with Enter, the popup traps focus, the wishlist's Add to cart keeps focus`, async () => {
      const { page, errors } = await openPage(shared.context, `${SITE_URL}${PRODUCT}`);
      // The in-place colour change is wired once its chunk has loaded after hydration.
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('product-options-live')));
      await tabTo(page, '.product-options__swatches a[href*="Burgundy"]');
      await page.keyboard.press('Enter');
      await page.getByRole('group', { name: 'Colour: Burgundy' }).waitFor();
      assert.match(await focusedName(page), /swatch.*Burgundy/, 'focus stays on the chosen colour');

      // Radios: Tab enters the group, Space chooses the focused one, arrows move the choice.
      const checked = (kind) => page.evaluate((k) => document.querySelector(`.product-options__group--${k} .option__input:checked`)?.getAttribute('value') ?? null, kind);
      for (const [kind, want] of [['size', '10'], ['length', 'Regular']]) {
        await tabTo(page, `.product-options__group--${kind} .option__input`);
        await page.keyboard.press('Space');
        assert.notEqual(await checked(kind), null, `Space chooses a ${kind}`);
        for (let i = 0; i < 12 && (await checked(kind)) !== want; i += 1) await page.keyboard.press('ArrowRight');
        assert.equal(await checked(kind), want);
        assert.equal(new URL(page.url()).searchParams.get(kind === 'size' ? 'Size' : 'Length'), want);
      }

      await page.locator('.product-actions__add:not([disabled])').waitFor();
      const popup = page.getByRole('dialog', { name: 'Added to bag' });
      await checkDialog(page, { opener: '.product-actions__add', dialog: popup });
      await tabTo(page, '.wishlist-toggle');
      await page.keyboard.press('Enter');
      await page.locator('.wishlist-toggle[aria-pressed="true"]').waitFor();

      // The wishlist's Add to cart by Enter: while the bag loads the button says it is busy
      // (aria-disabled) but keeps focus, so the shopper does not lose their place. The API's
      // answer is held back 500 ms so that the busy state is seen.
      const slow = async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
      };
      await page.route('**/api/cart/items**', slow);
      const wishlist = page.getByRole('dialog', { name: 'WISHLIST' });
      await tabTo(page, '.header-action--wishlist', { back: true });
      await page.keyboard.press('Enter');
      await wishlist.locator('[data-wishlist-total]').waitFor();
      const add = '.wishlist .bag-line .btn--primary';
      await tabTo(page, add);
      const onAdd = () => page.evaluate((s) => document.activeElement?.matches(s) === true, add);
      await page.keyboard.press('Enter');
      await page.locator(`${add}[aria-disabled="true"]`).waitFor();
      assert.ok(await onAdd(), `focus left Add to cart while the bag loads: it is on ${await focusedName(page)}`);
      await page.locator(`${add}:not([aria-disabled])`).waitFor();
      await page.getByText(/was added to your bag/).waitFor();
      assert.ok(await onAdd(), `focus left Add to cart once the bag loaded: it is on ${await focusedName(page)}`);
      await page.unroute('**/api/cart/items**', slow);
      await expectClosedBackTo(page, wishlist, page.locator('.header-action--wishlist').filter({ visible: true }));
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`${LISTING}: the filter sidebar has no close button, and its filters work by keyboard`, async () => {
      const { page, errors } = await openPage(shared.context, `${SITE_URL}${LISTING}`);
      await page.locator('[data-island="Listing"][data-hydrated="true"]').waitFor();
      assert.equal(await page.locator('.filter-panel__close').isVisible(), false, 'the sidebar is not a dialog: nothing to close');
      assert.equal(await page.locator('.plp-toolbar__filter').isVisible(), false);
      await tabTo(page, '.facet--colour .facet__input:not([disabled])');
      const colour = await page.evaluate(() => document.activeElement?.getAttribute('value'));
      const answered = page.waitForResponse((response) => response.url().includes('/api/listing'));
      await page.keyboard.press('Space');
      await answered;
      await page.waitForURL((url) => url.searchParams.get('filters[Color]') === colour);
      assert.deepEqual(errors, []);
      await page.close();
    });
  });
});
