// `npm run lighthouse`: Lighthouse 13's mobile audit (default emulation and throttling) of the home
// page, a category listing and a product page in each market, in Debian's chromium, against the
// sample store served by `storefront serve` (production rules, headers and compression). Prints the
// four category scores and LCP / TBT / CLS per page, and the median of each over the runs.
// SITE_URL=http://127.0.0.1:8080 audits a store that is already running instead of starting one.
// RUNS=n audits each page n times (default 1) and reports the median run.
// PATHS=/browse/womens,/us audits only those paths (default: the nine pages above).
// REPORT_DIR=dir keeps each run's full report there as JSON (main-thread tasks, long tasks, …).
// CPU_SLOWDOWN=n replaces the emulated phone's 4× CPU slowdown: Lighthouse multiplies the tasks it
// observes by it, so on a fast machine a larger n shows what a slower one would score.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CHROMIUM = '/usr/bin/chromium';
const PAGES = ['/', '/browse/womens', '/p/101/satin-slip-midi-dress/Emerald_Green'];
const MARKETS = ['', '/us', '/eu'];
const RUNS = Math.max(1, Number(process.env.RUNS ?? 1));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const FLAGS = process.env.CPU_SLOWDOWN
  ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: Number(process.env.CPU_SLOWDOWN) } }
  : {};

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Builds the islands and serves the sample store on a free port; returns its URL and a stop(). */
async function serveSample() {
  execFileSync('npm', ['--prefix', 'site-src', 'run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  execFileSync('cargo', ['build', '--release', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'storefront-lighthouse-'));
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const server = spawn(
    join(ROOT, 'target/release/storefront'),
    ['serve', '--export', 'fixtures/sample', '--out', join(work, 'public'), '--cache', join(work, 'cache'), '--database-url', `sqlite://${join(work, 'serve.db')}`, '--addr', `127.0.0.1:${port}`],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/`, 300_000);
  return {
    url,
    stop() {
      server.kill();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function audit(chrome, url) {
  const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', ...FLAGS });
  const problems = lhr.runtimeError?.message;
  if (problems) throw new Error(`${url}: ${problems}`);
  if (process.env.REPORT_DIR) {
    mkdirSync(process.env.REPORT_DIR, { recursive: true });
    const name = new URL(url).pathname.replace(/[^A-Za-z0-9]+/g, '_') || '_';
    writeFileSync(join(process.env.REPORT_DIR, `${name}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  return {
    scores: CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100)),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    failing: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
      .map((a) => a.id),
    lighthouse: lhr.lighthouseVersion,
    // Lighthouse's own measure of this machine's speed (higher is faster): scores follow it.
    benchmark: lhr.environment.benchmarkIndex,
  };
}

const site = process.env.SITE_URL ? { url: process.env.SITE_URL.replace(/\/+$/, ''), stop() {} } : await serveSample();
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'] });
const rows = [];
try {
  const paths = process.env.PATHS
    ? process.env.PATHS.split(',')
    : MARKETS.flatMap((market) => PAGES.map((page) => (page === '/' ? market || '/' : `${market}${page}`)));
  for (const path of paths) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await audit(chrome, `${site.url}${path}`));
    const perRun = runs.map((r) => `${r.scores[0]} (TBT ${Math.round(r.tbt)} ms, index ${Math.round(r.benchmark)})`);
    // The median run by performance score, so its metrics belong together.
    const run = [...runs].sort((a, b) => a.scores[0] - b.scores[0])[Math.floor(runs.length / 2)];
    rows.push({ path, ...run });
    console.log(
      `${path.padEnd(48)} ${run.scores.map(String).map((s) => s.padStart(3)).join(' ')}   LCP ${Math.round(run.lcp)} ms  TBT ${Math.round(run.tbt)} ms  CLS ${run.cls.toFixed(3)}` +
        (run.failing.length > 0 ? `   below 90: ${run.failing.join(', ')}` : ''),
    );
    if (RUNS > 1) console.log(`  performance per run: ${perRun.join(', ')}`);
  }
} finally {
  await chrome.kill();
  site.stop();
}
const scores = CATEGORIES.map((c, i) => `${c} ${median(rows.map((r) => r.scores[i]))}`).join(', ');
const slowdown = FLAGS.throttling?.cpuSlowdownMultiplier ?? throttling.mobileSlow4G.cpuSlowdownMultiplier;
console.log(`\nLighthouse ${rows[0]?.lighthouse} (mobile, CPU slowdown ${slowdown}×), median over ${rows.length} pages: ${scores}; LCP ${Math.round(median(rows.map((r) => r.lcp)))} ms, TBT ${Math.round(median(rows.map((r) => r.tbt)))} ms, CLS ${median(rows.map((r) => r.cls)).toFixed(3)}`);
