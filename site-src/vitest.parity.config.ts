// Built-site parity (`SITE_DIR=… npm run test:parity`): island markup in generated pages vs the
// components' server render. Runs in node; DOM parsing comes from happy-dom's Window.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    include: ['tests/parity/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
  },
});
