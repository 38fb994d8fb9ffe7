#!/usr/bin/env node
// HTML validity check with the Nu Html Checker (vnu-jar from npm, run by the machine's java).
// Usage: npm run validate-html -- FILE_OR_DIR...   (directories are searched for *.html)
// Prints every error as `file:line:column: message` and exits 1 if there is any.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const jar = join(dirname(require.resolve('vnu-jar/package.json')), 'build/dist/vnu.jar');
const java = process.env.JAVA ?? 'java';
const BATCH = 400; // files per java run: keeps the command line short

function collect(path, out) {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path).sort()) collect(join(path, entry), out);
  } else if (stat.isFile() && (out.explicit.has(path) || path.endsWith('.html'))) {
    out.files.push(path);
  }
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: npm run validate-html -- FILE_OR_DIR...');
  process.exit(2);
}
if (!existsSync(jar)) {
  console.error(`vnu.jar not found at ${jar}: run npm install`);
  process.exit(2);
}
const found = { files: [], explicit: new Set() };
for (const arg of args) {
  const path = resolve(arg);
  if (!existsSync(path)) {
    console.error(`no such file: ${arg}`);
    process.exit(2);
  }
  found.explicit.add(path);
  collect(path, found);
}
if (found.files.length === 0) {
  console.error(`no .html files in ${args.join(' ')}`);
  process.exit(2);
}

let errors = 0;
for (let i = 0; i < found.files.length; i += BATCH) {
  const batch = found.files.slice(i, i + BATCH);
  const run = spawnSync(java, ['-Xss1m', '-jar', jar, '--errors-only', '--format', 'json', ...batch], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) {
    console.error(`could not run ${java}: ${run.error.message}`);
    process.exit(2);
  }
  let report;
  try {
    // vnu writes its JSON report to stderr.
    report = JSON.parse(run.stderr || run.stdout);
  } catch {
    console.error(`vnu exited ${run.status} without a JSON report:\n${run.stderr}${run.stdout}`);
    process.exit(2);
  }
  for (const message of report.messages ?? []) {
    if (message.type !== 'error' && message.type !== 'non-document-error') continue;
    errors += 1;
    const file = message.url ? fileURLToPath(message.url.replace(/^file:(?!\/\/)/, 'file://')) : '?';
    const line = message.lastLine ?? message.firstLine ?? 0;
    const column = message.firstColumn ?? message.lastColumn ?? 0;
    const shown = relative(process.cwd(), file);
    console.log(`${shown === '' || shown.startsWith('..') ? file : shown}:${line}:${column}: ${message.message}`);
  }
}

console.log(`validate-html: ${found.files.length} file(s) checked, ${errors} error(s)`);
process.exit(errors > 0 ? 1 : 0);
