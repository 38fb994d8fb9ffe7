// The shop finder (/shop-finder, /us/shop-finder, /eu/shop-finder) in Debian's chromium at 1280 and 375 px, with axe on
// every state: every shop listed and on the drawn map; a search by town ("Leeds") and by postcode ("LS1 4AP",
// "SW1A 1AA") ordering the shops nearest first with their distances (miles; km on /eu), the query in the URL and Back
// restoring the previous search; an unknown place and an empty query refused with a message; a marker leading to its
// shop; the visitor's location. Run against `storefront dev` on the sample store:
// SITE_URL=http://127.0.0.1:8471 npm run test:browser:shop-finder
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { axeViolations, chromiumMissing, hydrated, launchBrowser, watchErrors } from './chromium.mjs';

const SITE_URL = (process.env.SITE_URL ?? '').replace(/\/+$/, '');
const VIEWPORTS = [
  ['1280 px', { width: 1280, height: 900 }],
  ['375 px', { width: 375, height: 812 }],
];
/** The sample store's shops (fixtures/sample/catalog/locations.json). */
const SHOP_COUNT = 12;

const problem = SITE_URL === '' ? 'SITE_URL is not set' : chromiumMissing();

/** The shops' names and distances as listed, in order. */
function listed(page) {
  return page.$$eval('.shop-list > .shop', (items) =>
    items.map((item) => ({
      name: item.querySelector('.shop__name')?.lastChild?.textContent ?? '',
      distance: item.querySelector('.shop__distance')?.textContent ?? null,
    })),
  );
}

/** A distance as listed ("1,234 miles away") in its unit. */
function amount(distance) {
  return Number(distance.replace(/,/g, '').split(' ')[0]);
}

async function search(page, query) {
  const field = page.getByLabel('Town or postcode');
  await field.fill(query);
  await field.press('Enter');
}

async function assertNoAxe(page, what) {
  assert.deepEqual(await axeViolations(page), [], `${what}: axe`);
}

for (const [label, viewport] of VIEWPORTS) {
  describe(`shop finder at ${label}`, { skip: problem ?? false }, () => {
    let shared;
    let context;
    before(async () => {
      shared = await launchBrowser();
      context = await shared.newContext(viewport);
    });
    after(async () => {
      await context?.close();
      await shared?.close();
    });

    async function open(path) {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors = watchErrors(page);
      await page.goto(`${SITE_URL}${path}`);
      await hydrated(page);
      await page.waitForSelector('[data-island="ShopFinder"][data-hydrated="true"]');
      return { page, errors };
    }

    for (const market of ['', '/us', '/eu']) {
      it(`${market || '/'} lists every shop, on the map too, with no error and no axe violation`, async () => {
        const { page, errors } = await open(`${market}/shop-finder`);
        assert.equal(await page.locator('h1').textContent(), 'Shop finder');
        const shops = await listed(page);
        assert.equal(shops.length, SHOP_COUNT);
        assert.ok(shops.every((s) => s.distance === null), 'no distance before a search');
        assert.equal(await page.locator('.shop-map__marker').count(), SHOP_COUNT);
        // Every marker links to its shop's entry in the list.
        const targets = await page.$$eval('.shop-map__marker', (links) => links.map((a) => a.getAttribute('href')));
        for (const href of targets) assert.equal(await page.locator(href).count(), 1, href);
        const jsonld = await page.$$eval('script[type="application/ld+json"]', (scripts) => scripts.map((s) => JSON.parse(s.textContent ?? '{}')));
        const stores = jsonld.flatMap((ld) => ld['@graph'] ?? []).filter((node) => node['@type'] === 'ClothingStore');
        assert.equal(stores.length, SHOP_COUNT, 'a ClothingStore per shop in JSON-LD');
        // Nothing wider than the window on a phone, nor than the finder's column (the page clips, so both).
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
        const sticksOut = await page.evaluate(() => {
          const column = document.querySelector('.shop-finder').getBoundingClientRect();
          return [...document.querySelectorAll('.shop-finder__row, .shop-map, .shop-list > .shop')]
            .filter((el) => el.getBoundingClientRect().right > column.right + 1)
            .map((el) => el.className);
        });
        assert.deepEqual(sticksOut, [], 'everything inside the column');
        await assertNoAxe(page, market || '/');
        assert.deepEqual(errors, []);
        await page.close();
      });
    }

    it('orders the shops from Leeds, then from LS1 4AP, and Back returns to Leeds', async () => {
      const { page, errors } = await open('/shop-finder');
      await search(page, 'Leeds');
      await page.getByRole('status').filter({ hasText: 'Shops nearest Leeds' }).waitFor();
      assert.equal(new URL(page.url()).searchParams.get('q'), 'Leeds');
      let shops = await listed(page);
      assert.deepEqual(
        shops.slice(0, 3).map((s) => `${s.name}: ${s.distance}`),
        ['Leeds Briggate: 0.3 miles away', 'York Stonegate: 22 miles away', 'Manchester King Street: 36 miles away'],
      );
      const miles = shops.map((s) => amount(s.distance));
      assert.deepEqual(miles, [...miles].sort((a, b) => a - b), 'nearest first');
      assert.ok(shops.every((s) => s.distance.endsWith(' miles away')));
      // The map numbers follow the list: marker 1 is the nearest shop, marked, and the cross shows Leeds.
      assert.equal(await page.locator('.shop-map__marker--nearest').getAttribute('aria-label'), '1: Leeds Briggate');
      assert.equal(await page.locator('.shop-map__here').count(), 1);
      await assertNoAxe(page, 'after a search');

      await search(page, 'LS1 4AP');
      await page.getByRole('status').filter({ hasText: 'Shops nearest LS1 4AP' }).waitFor();
      shops = await listed(page);
      assert.deepEqual(shops[0], { name: 'Leeds Briggate', distance: '0.2 miles away' });
      assert.equal(new URL(page.url()).searchParams.get('q'), 'LS1 4AP');

      await page.goBack();
      await page.getByRole('status').filter({ hasText: 'Shops nearest Leeds,' }).waitFor();
      assert.equal(await page.getByLabel('Town or postcode').inputValue(), 'Leeds');
      assert.deepEqual((await listed(page))[0], { name: 'Leeds Briggate', distance: '0.3 miles away' });
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('finds a London postcode, and a shared link with ?q= shows the same', async () => {
      const { page, errors } = await open('/shop-finder?q=SW1A%201AA');
      await page.getByRole('status').filter({ hasText: 'Shops nearest SW1A 1AA' }).waitFor();
      const shops = await listed(page);
      assert.deepEqual(
        shops.slice(0, 2).map((s) => `${s.name}: ${s.distance}`),
        ['London Covent Garden: 1.0 miles away', "London King's Road: 1.2 miles away"],
      );
      // The two London markers, a few pixels apart on the map, are drawn apart and both reachable.
      const boxes = await Promise.all(
        ['1: London Covent Garden', "2: London King's Road"].map((name) => page.getByRole('link', { name, exact: true }).boundingBox()),
      );
      assert.ok(boxes.every(Boolean));
      const [a, b] = boxes;
      assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= Math.min(a.width, b.width) * 0.9, 'London markers do not overlap');
      await page.getByRole('link', { name: "2: London King's Road", exact: true }).click();
      await page.waitForURL(/#shop-london-kings-road$/);
      assert.ok(await page.locator('#shop-london-kings-road').isVisible());
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('says so for an unknown place and an empty query', async () => {
      const { page, errors } = await open('/shop-finder');
      const field = page.getByLabel('Town or postcode');
      await search(page, 'Atlantis');
      assert.equal(await page.getByRole('alert').textContent(), "We couldn't find that place. Try a town or a postcode.");
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal((await listed(page))[0].distance, null, 'the list stays as it was');
      await assertNoAxe(page, 'unknown place');
      await search(page, '');
      assert.equal(await page.getByRole('alert').textContent(), 'Please enter a town or postcode.');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('measures in km on /eu', async () => {
      const { page, errors } = await open('/eu/shop-finder');
      await search(page, 'Dublin');
      await page.getByRole('status').filter({ hasText: 'Shops nearest Dublin' }).waitFor();
      const shops = await listed(page);
      assert.deepEqual(shops[0], { name: 'Dublin Grafton Street', distance: '1.0 km away' });
      assert.deepEqual(shops[1], { name: 'Manchester King Street', distance: '267 km away' });
      assert.ok(shops.every((s) => s.distance.endsWith(' km away')));
      assert.deepEqual(errors, []);
      await page.close();
    });

    it("orders the shops from the visitor's location", async () => {
      const located = await shared.newContext(viewport);
      await located.grantPermissions(['geolocation']);
      await located.setGeolocation({ latitude: 53.9599, longitude: -1.0873 });
      const page = await located.newPage();
      const errors = watchErrors(page);
      await page.goto(`${SITE_URL}/us/shop-finder`);
      await hydrated(page);
      await page.waitForSelector('[data-island="ShopFinder"][data-hydrated="true"]');
      await page.getByRole('button', { name: 'Use my location' }).click();
      await page.getByRole('status').filter({ hasText: 'Shops nearest your location' }).waitFor();
      const shops = await listed(page);
      assert.equal(shops[0].name, 'York Stonegate');
      assert.match(shops[0].distance, /^0\.\d miles away$/);
      assert.equal(new URL(page.url()).search, '', 'the location stays out of the URL');
      assert.deepEqual(errors, []);
      await located.close();
    });
  });
}
