// Unit and component tests (`npm test`): islands (shell and content blocks), registry, store, and template/component parity
// on fixture props. The built-site parity check has its own config (vitest.parity.config.ts).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}', 'tests/blocks/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    setupFiles: ['src/testing/vitest-setup.ts'],
  },
});
