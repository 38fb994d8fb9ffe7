// Vite build of the islands bundle. Output contract with the generator (generator/src/bundles.rs):
//   dist/.vite/manifest.json  — keys are source paths: "src/main.ts" (the entry; its `css` lists the
//                               styles) and "src/islands/{kebab-name}.tsx" (one lazy chunk per island;
//                               `imports` lists the chunks it needs, recursively, ending at the entry)
//   dist/assets/*             — every hashed file. A manifest `file` is "assets/main-AbC123.js": the
//                               page URL is "/" + file, i.e. /assets/main-AbC123.js, and the bundle's
//                               own chunk and preload URLs are /assets/… too.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The feature a source file belongs to (`src/features/<feature>/…`), or null. */
const featureOf = (id: string): string | null => /\/src\/features\/([^/]+)\//.exec(id)?.[1] ?? null;

/** A feature's API call file (`features/<feature>/<feature>-api/…`) that more than one feature imports. */
function isSharedApiCall(id: string, importers: readonly string[]): boolean {
  if (!/\/src\/features\/[^/]+\/[^/]+-api\//.test(id)) return false;
  const features = new Set(importers.filter((importer) => !importer.includes('.test.')).map(featureOf));
  return features.size > 1;
}

/**
 * React and the registry run almost whole while the first islands hydrate. V8's compile hint (the
 * magic comment, first in the file) compiles all of the chunk while it streams in, on a background
 * thread, instead of each function on the main thread at its first call: measured, the chunk's
 * main-thread script time on a listing fell by a sixth to a fifth (docs/decisions.md). Only this
 * chunk: in the others most functions wait for a click. Added after Vite's own rewriting, which
 * puts its preload helper at the top.
 */
function compileHintForRegistry(): Plugin {
  return {
    name: 'storefront:compile-hint',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && file.name === 'registry') file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        }
      },
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [react(), compileHintForRegistry()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    // No preloads: Vite's runtime preload lists cost ~1 kB gzip in the entry, and on a phone's
    // connection preloaded chunks took bandwidth from the first paint's stylesheet and the largest
    // picture (docs/decisions.md "Nothing preloaded"). An island's chunk and its imports are
    // fetched when it hydrates.
    modulePreload: false,
    rollupOptions: {
      input: 'src/main.ts',
      output: {
        // The API client and the form rules travel together: every island that calls the API also
        // validates input, and as two chunks each would cost its own request and gzip overhead.
        // An API call that two features make (a feature's `*-api/` file) travels with them too: on
        // its own it would be a chunk of a few bytes, a request and its gzip overhead.
        manualChunks(id: string, { getModuleInfo }) {
          if (/\/src\/lib\/(api|validation|availability)\.ts$/.test(id)) return 'api';
          return isSharedApiCall(id, getModuleInfo(id)?.importers ?? []) ? 'api' : undefined;
        },
      },
    },
  },
});
