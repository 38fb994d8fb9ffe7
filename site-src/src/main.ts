// The one bundle entry on every page: the site's styles, and the island registry, fetched once the page has loaded.
import './styles/app.css';
import { reloadForNewChunks, reloadOnChunkFailure } from './lib/chunk-reload';
import { startAfterLoad } from './lib/start-after-load';

reloadOnChunkFailure();
// React and the registry live in their own chunk: the entry stays ~1 kB, so the only script the
// page asks for while it loads does not compete with the largest picture.
startAfterLoad(() => {
  import('./islands/registry').then(({ startIslands }) => startIslands(), reloadForNewChunks);
});
