// Browser journeys of the listing island, in Debian's chromium against `storefront dev` serving a
// built store (SITE_URL) with the API and its search index:
//  - search results page: /search?query=… shows the API's results, the count and the empty-state copy;
//  - the header's search overlay: type → Popular Searches and Product Matches → Enter → results page;
//  - a category (LISTING_PATH, > 48 products): filter by size, sort by price, page 2, then back and
//    forward restore each state (URL, checkboxes, sort, page, products);
//  - a colour filter: every card shows the chosen colourway (picture, link, swatch first and current),
//    after filtering in place and on a page loaded with the filter in its URL;
//  - card pictures at the media host's widths (415 at these windows, the hover picture 992);
//  - Back from a product to a listing (search results, a filtered category) puts the page where it
//    was left, once the listing has hydrated and fetched its results, at 1280 and 375 px;
// each with 0 axe-core violations. Run:
//   SITE_URL=http://127.0.0.1:8099 LISTING_PATH=/browse/womens SEARCH_QUERY=dress npm run test:browser:listing
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { axeViolations, chromiumMissing, sharedBrowser, watchErrors } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const LISTING_PATH = process.env.LISTING_PATH ?? '';
const SEARCH_QUERY = process.env.SEARCH_QUERY ?? '';

function setupProblem() {
  if (SITE_URL === '') return 'SITE_URL is not set';
  if (LISTING_PATH === '' || SEARCH_QUERY === '') return 'LISTING_PATH and SEARCH_QUERY must be set';
  return chromiumMissing();
}

async function hydrated(page) {
  await page.locator('[data-island="Listing"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-island="Listing"][data-hydrated="true"]', { timeout: 15_000 });
}

/**
 * Runs `action`, which changes the listing state, and waits until the listing has rendered the API's
 * answer (waiting for "network idle" would not do: a page already idle counts as idle at once).
 */
async function listingUpdate(page, action) {
  const answered = page.waitForResponse((response) => response.url().includes('/api/listing'));
  await action();
  const answer = await (await answered).json();
  await page.waitForSelector('#plp-results[aria-busy="false"]');
  return answer;
}

/** Each colourway's picture in a listing answer (or the page's props), keyed `productId|colour`. */
const swatchImages = (answer) =>
  Object.fromEntries(answer.products.flatMap((p) => p.swatches.map((s) => [`${p.id}|${s.label}`, s.image])));

const productIds = (page) =>
  page.$$eval('#plp-results .card', (cards) => cards.map((c) => c.getAttribute('data-product-id')));

/**
 * What is wrong with the cards on the page under a filter by `colour`: each card with swatches must
 * show that colour's swatch first and current, its picture and its link.
 */
const cardsNotShowing = (page, colour, images) =>
  page.$$eval(
    '#plp-results .card',
    (cards, [wanted, pictures]) =>
      cards.flatMap((card) => {
        const swatches = Array.from(card.querySelectorAll('.card-swatch__link'));
        if (swatches.length === 0) return [];
        const id = card.getAttribute('data-product-id');
        const first = swatches[0];
        const problems = [];
        if (first.getAttribute('title') !== wanted) problems.push(`${id}: first swatch ${first.getAttribute('title')}`);
        if (first.getAttribute('aria-current') !== 'true') problems.push(`${id}: swatch not current`);
        if (card.querySelector('.card__image')?.getAttribute('src') !== pictures[`${id}|${wanted}`]) problems.push(`${id}: picture`);
        if (card.querySelector('.card__name a')?.getAttribute('href') !== first.getAttribute('href')) problems.push(`${id}: link`);
        return problems;
      }),
    [colour, images],
  );

const problem = setupProblem();

describe('listing journeys', () => {
  if (problem !== null) {
    it('needs SITE_URL, LISTING_PATH, SEARCH_QUERY and chromium', () => assert.fail(problem));
    return;
  }
  // The locale prompt, which opens once per browser session, is marked seen: the shopper journeys
  // test it, and here it would cover the listing.
  const shared = sharedBrowser();

  it('search results page shows the matches for ?query=', async () => {
    const page = await shared.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${SITE_URL}/search?query=${encodeURIComponent(SEARCH_QUERY)}`, { waitUntil: 'networkidle' });
    await hydrated(page);
    await page.waitForSelector('#plp-results .card');
    const count = await page.textContent('.plp-toolbar__count');
    assert.match(count ?? '', /^\d+ products$/);
    assert.ok((await productIds(page)).length > 0);
    assert.equal(await page.inputValue('.plp-toolbar__select'), 'relevance');

    await page.goto(`${SITE_URL}/search?query=zzqqxxyy`, { waitUntil: 'networkidle' });
    await hydrated(page);
    await page.waitForSelector('text=No products found matching your search criteria.');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('search overlay: type, see Popular Searches and Product Matches, Enter opens the results page', async () => {
    const page = await shared.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${SITE_URL}/`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-island="HeaderActions"][data-hydrated="true"]');
    await page.locator('.header-action--search').click();
    const input = page.getByRole('searchbox', { name: 'Search' });
    await input.waitFor();
    // Whitespace alone does not navigate.
    await input.fill('   ');
    await input.press('Enter');
    assert.equal(new URL(page.url()).pathname, '/');
    // A prefix of a word finds products; the curated Popular Searches come with them.
    const term = SEARCH_QUERY.slice(0, 3);
    await input.fill(term);
    await page.getByRole('heading', { name: 'Popular Searches' }).waitFor();
    await page.getByRole('heading', { name: 'Product Matches' }).waitFor();
    const chips = await page.locator('.search__chips button').allTextContents();
    assert.ok(chips.length >= 1 && chips.length <= 5, `chips: ${chips}`);
    // Searches that extend what was typed come first.
    assert.ok(chips[0].toLowerCase().startsWith(term.toLowerCase()), `chips: ${chips}`);
    const matches = await page.locator('.search__products a').count();
    assert.ok(matches >= 1 && matches <= 10, `matches: ${matches}`);
    assert.deepEqual(await axeViolations(page), []);
    await input.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('query') === term);
    await hydrated(page);
    await page.waitForSelector('#plp-results .card');
    assert.match((await page.textContent('.plp-toolbar__count')) ?? '', /^\d+ products$/);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('category: filter by size, sort by price, page 2, back and forward restore the state', async () => {
    const page = await shared.context.newPage();
    const errors = watchErrors(page);
    let listingCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/listing')) listingCalls += 1;
    });
    await page.goto(`${SITE_URL}${LISTING_PATH}`, { waitUntil: 'networkidle' });
    await hydrated(page);
    // Hydrating the static first page fetches nothing.
    assert.equal(listingCalls, 0);
    const firstPage = await productIds(page);
    assert.equal(firstPage.length, 48);

    // Filter by size: the first size option.
    const size = await page.locator('.facet--size .facet__input').first();
    const sizeValue = await size.getAttribute('value');
    await listingUpdate(page, () => page.locator('.facet--size .facet__label').first().click());
    await page.waitForURL((url) => url.searchParams.get('filters[Size]') === sizeValue);
    assert.ok(await size.isChecked());
    const filteredUrl = page.url();

    // Sort by price, low to high: prices ascend on the page.
    await listingUpdate(page, () => page.selectOption('.plp-toolbar__select', 'price-asc'));
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price-asc');
    const sortedUrl = page.url();
    const sortedIds = await productIds(page);
    const prices = await page.$$eval('#plp-results .card .price__now', (els) => els.map((el) => Number(el.textContent.replace(/[^0-9.]/g, ''))));
    assert.ok(prices.length > 0);
    assert.deepEqual(prices, [...prices].sort((a, b) => a - b));

    // Page 2.
    await listingUpdate(page, () => page.locator('.pagination__link', { hasText: '2' }).first().click());
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    const page2Ids = await productIds(page);
    assert.ok(page2Ids.length > 0);
    assert.notDeepEqual(page2Ids, sortedIds);
    assert.equal(await page.getAttribute('.pagination__link[aria-current="page"]', 'href'), `?filters%5BSize%5D=${encodeURIComponent(sizeValue)}&sort=price-asc&page=2`);
    assert.deepEqual(await axeViolations(page), []);

    // Back: page 1 of the sorted, filtered listing.
    await page.goBack();
    await page.waitForURL(sortedUrl);
    await page.waitForFunction((ids) => JSON.stringify(Array.from(document.querySelectorAll('#plp-results .card')).map((c) => c.getAttribute('data-product-id'))) === JSON.stringify(ids), sortedIds);
    assert.equal(await page.inputValue('.plp-toolbar__select'), 'price-asc');
    assert.ok(await size.isChecked());
    // Back again: filtered, default sort; then to the static first page.
    await page.goBack();
    await page.waitForURL(filteredUrl);
    await page.waitForFunction(() => document.querySelector('.plp-toolbar__select')?.value === 'featured');
    await page.goBack();
    await page.waitForURL(`${SITE_URL}${LISTING_PATH}`);
    await page.waitForFunction((ids) => JSON.stringify(Array.from(document.querySelectorAll('#plp-results .card')).map((c) => c.getAttribute('data-product-id'))) === JSON.stringify(ids), firstPage);
    assert.equal(await size.isChecked(), false);
    // Forward restores page 2 of the sorted, filtered listing again.
    await page.goForward();
    await page.goForward();
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await page.waitForFunction((ids) => JSON.stringify(Array.from(document.querySelectorAll('#plp-results .card')).map((c) => c.getAttribute('data-product-id'))) === JSON.stringify(ids), page2Ids);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('colour filter: each card shows the chosen colourway, filtered in place and loaded from the URL', async () => {
    const page = await shared.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${SITE_URL}${LISTING_PATH}`, { waitUntil: 'networkidle' });
    await hydrated(page);
    // A colour that some card on the first page offers, but not as the colourway it shows.
    const target = await page.$$eval('#plp-results .card', (cards) => {
      for (const card of cards) {
        const href = card.querySelector('.card__name a')?.getAttribute('href');
        const other = Array.from(card.querySelectorAll('.card-swatch__link')).find((s) => s.getAttribute('href') !== href);
        if (other) return { id: card.getAttribute('data-product-id'), colour: other.getAttribute('title'), href: other.getAttribute('href') };
      }
      return null;
    });
    assert.ok(target, 'the listing has a card with a second colourway');
    const option = page.locator(`.facet--colour .facet__input[value="${target.colour}"]`);
    const optionId = await option.getAttribute('id');
    const filtered = await listingUpdate(page, () => page.locator(`label[for="${optionId}"]`).click());
    await page.waitForURL((url) => url.searchParams.get('filters[Color]') === target.colour);
    const images = swatchImages(filtered);
    target.image = images[`${target.id}|${target.colour}`];
    assert.ok(target.image, 'the answer has the colourway picture');
    assert.deepEqual(await cardsNotShowing(page, target.colour, images), []);
    const card = page.locator(`#plp-results .card[data-product-id="${target.id}"]`);
    assert.equal(await card.locator('.card__image').getAttribute('src'), target.image);
    // The srcset follows the colourway shown (a browser ignores src while srcset names another picture).
    assert.equal(await card.locator('.card__image').getAttribute('srcset'), `${target.image}?w=415&fmt=auto&qlt=default 415w, ${target.image}?w=768&fmt=auto&qlt=default 768w`);
    assert.equal(await card.locator('.card__name a').getAttribute('href'), target.href);
    assert.equal(await card.locator('.card__image--secondary').count(), 0);
    assert.deepEqual(await axeViolations(page), []);

    // The same URL loaded afresh: the static page hydrates, then shows the filtered cards alike.
    const reloaded = await listingUpdate(page, () => page.reload());
    await hydrated(page);
    assert.ok(await page.locator('.facet--colour .facet__input:checked').count() === 1);
    assert.deepEqual(await cardsNotShowing(page, target.colour, swatchImages(reloaded)), []);
    assert.equal(await card.locator('.card__image').getAttribute('src'), target.image);
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 812 }]) {
    it(`card pictures load at the media host's card width, the hover picture at 992 (${viewport.width} px)`, async () => {
      const page = await shared.context.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${SITE_URL}${LISTING_PATH}`, { waitUntil: 'networkidle' });
      const first = page.locator('#plp-results .card').first();
      // A quarter (desktop) or a half (phone) of the window at 1× is under 415 px: the 415 picture.
      await page.waitForFunction(() => document.querySelector('#plp-results .card__image')?.complete === true);
      const loaded = await first.locator('.card__image:not(.card__image--secondary)').evaluate((img) => img.currentSrc);
      assert.match(loaded, /\?w=415&fmt=auto&qlt=default$/);
      const hover = page.locator('#plp-results .card__image--secondary').first();
      assert.match((await hover.getAttribute('src')) ?? '', /\?w=992&fmt=auto&qlt=default$/);
      // Shown only where a pointer hovers on a wide screen: elsewhere never displayed, never fetched.
      const displayed = await hover.evaluate((img) => getComputedStyle(img).display !== 'none');
      assert.equal(displayed, viewport.width >= 992);
      await page.close();
    });

    it(`Back from a product restores the listing's scroll position (search results, filtered category; ${viewport.width} px)`, async () => {
      const page = await shared.context.newPage();
      await page.setViewportSize(viewport);
      const errors = watchErrors(page);
      const size = await (async () => {
        await page.goto(`${SITE_URL}${LISTING_PATH}`, { waitUntil: 'networkidle' });
        await hydrated(page);
        return page.locator('.facet--size .facet__input').first().getAttribute('value');
      })();
      for (const url of [`/search?query=${encodeURIComponent(SEARCH_QUERY)}`, `${LISTING_PATH}?filters%5BSize%5D=${encodeURIComponent(size)}&page=2`]) {
        await listingUpdate(page, () => page.goto(`${SITE_URL}${url}`));
        await hydrated(page);
        const cards = page.locator('#plp-results .card');
        const n = await cards.count();
        assert.ok(n >= 12, `${url}: ${n} cards`);
        const card = cards.nth(n - 3);
        // In the middle of the screen, clear of the phone's bottom bar, so the click below does not
        // scroll; then measured once cards coming near the viewport have their real height.
        await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.waitForTimeout(300);
        const left = await page.evaluate(() => window.scrollY);
        const id = await card.getAttribute('data-product-id');
        const stood = (await card.boundingBox())?.y;
        assert.ok(left > viewport.height, `${url}: scrolled to ${left}`);
        await Promise.all([page.waitForURL((u) => u.pathname.startsWith('/p/')), card.locator('.card__name a').click()]);
        await page.waitForLoadState('load');
        await listingUpdate(page, () => page.goBack());
        // Not `hydrated()`: it scrolls the island into view, which would move the page itself.
        await page.waitForSelector('[data-island="Listing"][data-hydrated="true"]', { state: 'attached' });
        // Back where it was: the card left from stands where it stood (the offset itself can differ
        // while cards far from the viewport still have their estimated height).
        const top = (cardId) => document.querySelector(`#plp-results .card[data-product-id="${cardId}"]`)?.getBoundingClientRect().top ?? null;
        await page.waitForFunction(`Math.abs((${top})(${JSON.stringify(id)}) - ${stood}) <= 2`, undefined, { timeout: 5_000 }).catch(async () => {
          assert.fail(`${url}: the card left from stands at ${await page.evaluate(top, id)}, stood at ${stood} (scrolled to ${await page.evaluate(() => window.scrollY)}, left at ${left})`);
        });
        assert.ok(await page.evaluate(() => window.scrollY) > viewport.height, `${url}: back at the top of the page`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
