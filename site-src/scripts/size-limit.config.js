//! size-limit checks over the built bundle (`npm run size`, after `npm run build`).
//! The product page loads the entry (JS + CSS) and the HeaderActions and ProductOptions islands with
//! every chunk they import; the file list comes from dist/.vite/manifest.json, as the generator does.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const manifestPath = resolve(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  throw new Error(`${manifestPath} is missing: run \`npm run build\` first`);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

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

function page(keys) {
  const seen = new Set();
  return [...new Set(keys.flatMap((key) => filesOf(key, seen)))].map((file) => resolve(dist, file));
}

export default [
  {
    name: 'product page: entry + css + HeaderActions + ProductOptions (gzip)',
    path: page(['src/main.ts', 'src/islands/header-actions.tsx', 'src/islands/product-options.tsx']),
    gzip: true,
    limit: '90 kB',
  },
];
