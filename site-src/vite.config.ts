// Vite build of the islands bundle. Output contract with the generator (generator/src/bundles.rs):
//   dist/.vite/manifest.json  — keys are source paths: "src/main.ts" (the entry; its `css` lists the
//                               styles) and "src/islands/{kebab-name}.tsx" (one lazy chunk per island;
//                               `imports` lists the chunks it needs, recursively, ending at the entry)
//   dist/assets/*             — every hashed file. A manifest `file` is "assets/main-AbC123.js": the
//                               page URL is "/" + file, i.e. /assets/main-AbC123.js, and the bundle's
//                               own chunk and preload URLs are /assets/… too.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    // The generator already writes <link rel="modulepreload"> for each island's chunk and its static
    // imports (generator/src/bundles.rs), so Vite's runtime preload lists (one per dynamic import,
    // ~1 kB gzip in the entry alone) were paid twice. Lazy chunks' own imports are nearly all on the
    // page already.
    modulePreload: false,
    rollupOptions: {
      input: 'src/main.ts',
      output: {
        // The API client and the form rules travel together: every island that calls the API also
        // validates input, and as two chunks each would cost its own request and gzip overhead.
        manualChunks(id: string) {
          return /\/src\/lib\/(api|validation|availability)\.ts$/.test(id) ? 'api' : undefined;
        },
      },
    },
  },
});
