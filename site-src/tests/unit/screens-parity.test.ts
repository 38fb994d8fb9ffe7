// The client-side screens and the generator's shell pages are one list: every shell page the
// generator writes (its SHELLS table, in Rust) names a screen the shopper-screen island can show, and
// every screen the island knows has its page. The search page is the one shell without a screen: it
// carries the listing island instead (templates/pages/shell.html).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { screens } from '../../src/features/shell/screens';

const generatorSrc = resolve(dirname(fileURLToPath(import.meta.url)), '../../../generator/src');

/** Every Rust file under `dir`. */
function rustFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rustFiles(path);
    return name.endsWith('.rs') ? [path] : [];
  });
}

/** The `name` of every entry of the generator's SHELLS table, wherever in generator/src it lives. */
function shellNames(): string[] {
  const tables = rustFiles(generatorSrc)
    .map((file) => readFileSync(file, 'utf8'))
    .map((text) => /pub(?:\([a-z]+\))? const SHELLS: &\[ShellScreen\] = &\[([\s\S]*?)\n\];/.exec(text)?.[1])
    .filter((table): table is string => table !== undefined);
  expect(tables, 'exactly one SHELLS table in generator/src').toHaveLength(1);
  return [...(tables[0] ?? '').matchAll(/\bname: "([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('client-side screens and the generator’s shell pages', () => {
  it('name the same screens (search shows the listing island instead)', () => {
    const names = shellNames();
    expect(names.length).toBeGreaterThan(10);
    expect(names).toContain('search');
    expect([...names.filter((name) => name !== 'search')].sort()).toEqual(Object.keys(screens).sort());
  });
});
