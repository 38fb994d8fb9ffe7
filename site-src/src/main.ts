// The one bundle entry on every page: the site's styles and the island registry.
import './styles/app.css';
import { startIslands } from './islands/registry';

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => startIslands(), { once: true });
} else {
  startIslands();
}
