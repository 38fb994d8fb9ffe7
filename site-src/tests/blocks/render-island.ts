// Renders an island partial with MiniJinja as the generator does, with every partial of
// templates/islands/ loaded so shared macros (`_block_icons.html`, `_mobile_menu.html`) resolve.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Environment } from 'minijinja-js';

const islandsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../templates/islands');

export function renderIsland(kebabName: string, props: unknown): string {
  const env = new Environment();
  for (const file of readdirSync(islandsDir).filter((name) => name.endsWith('.html'))) {
    env.addTemplate(`islands/${file}`, readFileSync(resolve(islandsDir, file), 'utf8'));
  }
  return env.renderTemplate(`islands/${kebabName}.html`, { props });
}
