//! Runs around every component test: unmounts what each test rendered (React Testing Library's
//! automatic cleanup needs vitest globals, which are off here), so no React work is left queued
//! when a test file's DOM is torn down.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
});
