// Helpers for component tests: reset shared state between tests.
import { store } from '../lib/store';

export function resetBrowserState(): void {
  store.getState().reset();
  document.cookie = 'user-authenticated=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  window.history.replaceState(null, '', '/');
  document.body.innerHTML = '';
  window.localStorage.clear();
}
