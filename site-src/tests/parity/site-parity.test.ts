// Built-site parity: for a sample of pages in SITE_DIR, every island's static markup must equal its
// component's server render for the page's own props (what hydrateRoot needs). Never skips: without
// SITE_DIR it fails and says why.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { islandLoader } from '../../src/islands/modules';
import { normaliseHtml } from '../../src/testing/normalise-html';

const MAX_PAGES = Number(process.env.PARITY_MAX_PAGES ?? 30);
/** Path shapes sampled first, so a site with many top-level sections still covers these. */
const PRIORITY = ['/', '/p', '/browse', '/bag', '/shop-finder', '/us/', '/us/p', '/us/browse', '/us/shop-finder', '/eu/', '/eu/p', '/eu/browse', '/eu/shop-finder'];
const MARKETS = new Set(['us', 'eu']);

function siteDirProblem(dir: string | undefined): string | null {
  if (dir === undefined || dir.trim() === '') {
    return 'SITE_DIR is not set: run `SITE_DIR=/path/to/built/public npm run test:parity`';
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return `SITE_DIR=${dir} is not a directory`;
  return null;
}

function findPages(root: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === root && (entry.name === 'assets' || entry.name === 'api')) continue;
        walk(full);
      } else if (entry.name === 'index.html') {
        const rel = relative(root, dir).split(sep).join('/');
        pages.push(rel === '' ? '/' : `/${rel}/`);
      }
    }
  };
  walk(root);
  return pages.sort();
}

/** `/` → "/", `/p/x/` → "/p", `/us/` → "/us/", `/us/p/x/` → "/us/p". */
function shapeOf(url: string): string {
  const segments = url.split('/').filter(Boolean);
  if (segments.length === 0) return '/';
  const [first = '', second] = segments;
  if (MARKETS.has(first)) return second === undefined ? `/${first}/` : `/${first}/${second}`;
  return `/${first}`;
}

/** A stable pseudo-random order, so each run checks the same pages but not just the alphabetical head. */
function spread(page: string): number {
  let hash = 2166136261;
  for (let i = 0; i < page.length; i += 1) hash = Math.imul(hash ^ page.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/** Round-robin over path shapes (priority shapes first) so the sample spans the site. */
function samplePages(pages: string[], max: number): string[] {
  const groups = new Map<string, string[]>();
  for (const page of pages) {
    const shape = shapeOf(page);
    groups.set(shape, [...(groups.get(shape) ?? []), page]);
  }
  for (const group of groups.values()) group.sort((a, b) => spread(a) - spread(b) || (a < b ? -1 : 1));
  const order = [
    ...PRIORITY.filter((shape) => groups.has(shape)),
    ...[...groups.keys()].filter((shape) => !PRIORITY.includes(shape)).sort(),
  ];
  const picked: string[] = [];
  for (let round = 0; picked.length < max; round += 1) {
    const before = picked.length;
    for (const shape of order) {
      const page = groups.get(shape)?.[round];
      if (page !== undefined && picked.length < max) picked.push(page);
    }
    if (picked.length === before) break;
  }
  return picked;
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const from = Math.max(0, i - 3);
  const show = (lines: string[]): string => lines.slice(from, i + 4).map((line, k) => `${from + k + 1 === i + 1 ? '>' : ' '} ${line}`).join('\n');
  return `first difference at normalised line ${i + 1}\n  component (react-dom/server):\n${show(a)}\n  page markup:\n${show(b)}`;
}

const siteDir = process.env.SITE_DIR;
const problem = siteDirProblem(siteDir);

describe('island markup in the built site equals the components’ server render', () => {
  if (problem !== null || siteDir === undefined) {
    it('needs SITE_DIR', () => {
      throw new Error(problem ?? 'SITE_DIR is not set');
    });
    return;
  }

  const pages = findPages(siteDir);
  const sample = samplePages(pages, MAX_PAGES);
  const checked = new Map<string, number>();
  const window = new Window({
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true },
  });
  const parser = new window.DOMParser();
  afterAll(() => window.happyDOM.close());

  it(`finds pages in ${siteDir}`, () => {
    expect(pages.length, `no index.html under ${siteDir}`).toBeGreaterThan(0);
  });

  for (const url of sample) {
    it(`page ${url}`, async () => {
      const file = join(siteDir, ...url.split('/').filter(Boolean), 'index.html');
      const doc = parser.parseFromString(readFileSync(file, 'utf8'), 'text/html');
      const scripts = new Map<string, string>();
      for (const script of Array.from(doc.querySelectorAll('script[data-island-props]'))) {
        scripts.set(script.getAttribute('data-island-props') ?? '', script.textContent ?? '');
      }
      const failures: string[] = [];
      for (const el of Array.from(doc.querySelectorAll('[data-island]'))) {
        const name = el.getAttribute('data-island') ?? '';
        const id = el.getAttribute('data-island-id') ?? '';
        const where = `${name} (${id}) on ${url}`;
        const json = scripts.get(id);
        if (json === undefined) {
          failures.push(`${where}: no <script type="application/json" data-island-props="${id}">`);
          continue;
        }
        const loader = islandLoader(name);
        if (loader === undefined) {
          failures.push(`${where}: unknown island (no src/islands/<kebab-name>.tsx)`);
          continue;
        }
        let props: unknown;
        try {
          props = JSON.parse(json);
        } catch (error) {
          failures.push(`${where}: props are not JSON: ${String(error)}`);
          continue;
        }
        const mod = await loader();
        if (mod.schema !== undefined) {
          const parsed = mod.schema.safeParse(props);
          if (!parsed.success) {
            failures.push(`${where}: props do not match the schema: ${JSON.stringify(parsed.error)}`);
            continue;
          }
          props = parsed.data;
        }
        const expected = normaliseHtml(renderToString(createElement(mod.default, props as object)), window.document);
        const actual = normaliseHtml(el.innerHTML, window.document);
        if (expected !== actual) failures.push(`${where}: markup differs; ${firstDifference(expected, actual)}`);
        checked.set(name, (checked.get(name) ?? 0) + 1);
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }

  it('checked at least one HeaderActions and one ProductOptions', () => {
    const summary = JSON.stringify(Object.fromEntries(checked));
    console.log(`parity: ${sample.length} of ${pages.length} pages sampled; islands checked ${summary}`);
    expect(checked.get('HeaderActions') ?? 0, `islands checked: ${summary}`).toBeGreaterThan(0);
    expect(checked.get('ProductOptions') ?? 0, `islands checked: ${summary}`).toBeGreaterThan(0);
  });
});
