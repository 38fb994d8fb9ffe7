//! Runs around every component test: unmounts what each test rendered (React Testing Library's
//! automatic cleanup needs vitest globals, which are off here), so no React work is left queued
//! when a test file's DOM is torn down; and gives each test a visitor who accepted analytics.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// Components' analytics events are asserted as sent: the visitor has accepted analytics (the
// consent rules have their own tests, which set or clear this cookie).
beforeEach(() => {
  document.cookie = 'cookie-consent=analytics; Path=/';
});

afterEach(() => {
  cleanup();
});
