// Runs around every component test: unmounts what each test rendered (React Testing Library's
// automatic cleanup needs vitest globals, which are off here), so no React work is left queued
// when a test file's DOM is torn down; and gives each test a visitor who accepted analytics.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
// Loaded by the cart events on first use, as in the browser (where the session loads it first):
// loaded here, a test's last cart event cannot start loading it after the test file is torn down.
import '../lib/cart-tracking';

// Components' analytics events are asserted as sent: the visitor has accepted analytics (the
// consent rules have their own tests, which set or clear this cookie).
beforeEach(() => {
  document.cookie = 'cookie-consent=analytics; Path=/';
});

afterEach(() => {
  cleanup();
});
