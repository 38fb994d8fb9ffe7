// size-limit checks over the built bundle (`npm run size`, after `npm run build`).
// The product page loads the entry (JS + CSS), the registry chunk the entry fetches once the page
// has loaded (React and the island registry), and every island it can carry — the header, the
// shopper shell, the product options and actions, and the layout's content-block islands (benefit
// bar, countdown, one of the two mobile menu variants, mega menu, footer columns) — with every chunk they import; the file list comes from
// dist/.vite/manifest.json, as the generator does.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const manifestPath = resolve(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  throw new Error(`${manifestPath} is missing: run \`npm run build\` first`);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

// The registry chunk (React) must open with V8's compile hint (vite.config.ts), or a phone compiles
// it function by function on the main thread while the islands hydrate.
const registryFile = resolve(dist, manifest['src/islands/registry.ts'].file);
if (!readFileSync(registryFile, 'utf8').startsWith('//# allFunctionsCalledOnLoad\n')) {
  throw new Error(`${registryFile} does not start with the //# allFunctionsCalledOnLoad compile hint`);
}

/** The files a manifest key brings onto a page: its own, its CSS, and those of everything it imports. */
function filesOf(key, seen = new Set()) {
  const chunk = manifest[key];
  if (chunk === undefined) throw new Error(`manifest has no "${key}": is the island renamed?`);
  if (seen.has(key)) return [];
  seen.add(key);
  return [
    chunk.file,
    ...(chunk.css ?? []),
    ...(chunk.imports ?? []).flatMap((imported) => filesOf(imported, seen)),
  ];
}

/** The files of a page that match `kind` (`.js` or `.css`). */
function page(keys, kind) {
  const seen = new Set();
  return [...new Set(keys.flatMap((key) => filesOf(key, seen)))]
    .filter((file) => file.endsWith(kind))
    .map((file) => resolve(dist, file));
}

const island = (name) => `src/islands/${name}.tsx`;
/**
 * Islands a page with the default layout carries: header, shopper shell, promo bars, menus, footer.
 * The mobile menu is one of two variants (partials/mobile_nav.html renders MobileMenu or
 * MobileMenuTwo, never both), so each page type is measured with each variant.
 */
const layoutWith = (menu) =>
  ['src/main.ts', 'src/islands/registry.ts', ...['header-actions', 'shopper-shell', 'benefit-bar', 'countdown', menu, 'mega-menu', 'footer-columns'].map(island)];
const contentBlocks = ['carousel', 'accordion', 'promo-clicks', 'sticker', 'animated-text-banner'].map(island);

const pageTypes = {
  product: [island('product-options'), island('product-actions')],
  'home and content': contentBlocks,
  listing: [island('listing')],
  'account and bag screens': [island('shopper-screen')],
  'shop finder': [island('shop-finder')],
};

/**
 * JavaScript per page type and mobile-menu variant, React included, and the stylesheet every page loads.
 * The listing gets half a kilobyte more: its cards re-render on the client, so the card pictures'
 * srcset (card widths 415 / 768, hover 992, swatch pictures 68) is code there, about 250 B gzip, and
 * it saves far more in image bytes than it costs (docs/decisions.md "Card pictures").
 * Every page got 0.7 kB more when React and the registry left the entry for a chunk fetched after
 * load (the chunks' imports of each other, and two files compressed apart): that keeps ~70 kB off
 * a phone's connection while the page's first screen loads (docs/decisions.md "Islands start after
 * the page has loaded").
 */
export default [
  ...Object.entries(pageTypes).flatMap(([type, islands]) =>
    ['mobile-menu', 'mobile-menu-two'].map((menu) => ({
      name: `${type} page JS with ${menu} (gzip)`,
      path: page([...layoutWith(menu), ...islands], '.js'),
      gzip: true,
      limit: type === 'listing' ? '91.2 kB' : '90.7 kB',
    })),
  ),
  { name: 'stylesheet (gzip)', path: page(['src/main.ts'], '.css'), gzip: true, limit: '14 kB' },
  // The shop finder's own styles, linked by its page alone (generator/src/bundles.rs), beside the one above.
  {
    name: 'shop finder stylesheet (gzip)',
    path: page([island('shop-finder')], '.css').filter((file) => !page(['src/main.ts'], '.css').includes(file)),
    gzip: true,
    limit: '2 kB',
  },
];
