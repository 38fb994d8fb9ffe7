// Renders an island partial (templates/islands/{kebab-name}.html) with MiniJinja, as the generator
// does, for the template/component parity unit test. Node-only (reads the template files).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Environment } from 'minijinja-js';

const templatesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../templates');

let env: Environment | undefined;

export function renderIslandTemplate(kebabName: string, props: unknown): string {
  if (env === undefined) env = new Environment();
  const name = `islands/${kebabName}.html`;
  // Re-read every time so a test run always sees the file on disk.
  env.addTemplate(name, readFileSync(resolve(templatesDir, name), 'utf8'));
  return env.renderTemplate(name, { props });
}
