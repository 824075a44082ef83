/**
 * `npm run bench:mobile`: Lighthouse's mobile preset (a mid-range phone, simulated throttling) on
 * every page of the sitemap, each beside its stripped self (the same HTML, styles inlined, no
 * script: scripts/bench/stripped-page.ts) and beside a plain Starlight page of the same version
 * with the same text (scripts/bench/plain-starlight.ts), interleaved, so that on a shared machine
 * the figures are read as ratios. It prints, per page, the medians of the score, total blocking
 * time, largest contentful paint, elements and bytes, and the machine's load; it never fails on them.
 *
 * The three are served over HTTPS with HTTP/2 (a throwaway certificate the browser is told to accept).
 *
 * Options: --runs=N Lighthouse runs of each page and each comparison (default 2);
 * --pages=/a/,/b/ only these pages of the sitemap (default every page).
 * Aims (issue 27, on an idle machine): score >= 95, blocking time < 200 ms, bytes <= 1.1 x stripped.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { serveLikeAStaticHost } from '../src/host/static-host.ts';
import { launchForLighthouse, lighthouseMobile, type MobileFigures } from './bench/lighthouse-mobile.ts';
import { buildPlainStarlight } from './bench/plain-starlight.ts';
import { writeStrippedPage } from './bench/stripped-page.ts';
import { throwawayCertificate } from './bench/throwaway-certificate.ts';
import { median } from '../src/lib/measures/statistics.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
const distDirectory = path.join(projectRoot, 'dist');
const aims = { score: 95, totalBlockingTime: 200, bytesOverStripped: 1.1 };

const usage = 'Usage: npm run bench:mobile -- [--runs=N] [--pages=/path/,/other/]';
function readOptions(): { runs: number; pages: string[] | undefined } {
  const { values } = scriptArguments(usage, { runs: { type: 'string' }, pages: { type: 'string' } });
  const runs = wholeNumberOption(usage, 'runs', values.runs, 2, 1);
  return { runs, pages: values.pages?.split(',').map((page) => page.trim()).filter((page) => page !== '') };
}

/** The page paths of the built sitemap, in its order. */
function sitemapPagePaths(): string[] {
  const index = readFileSync(path.join(distDirectory, 'sitemap-index.xml'), 'utf8');
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => path.basename(new URL(match[1] ?? '').pathname));
  return sitemaps.flatMap((file) => [...readFileSync(path.join(distDirectory, file), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname));
}

function medians(runs: MobileFigures[]): MobileFigures | undefined {
  if (runs.length === 0) return undefined;
  const of = (key: keyof MobileFigures): number => median(runs.map((run) => run[key]));
  return { score: of('score'), totalBlockingTime: of('totalBlockingTime'), largestContentfulPaint: of('largestContentfulPaint'), elements: of('elements'), bytes: of('bytes') };
}

const load = (): string => os.loadavg().map((value) => value.toFixed(2)).join(', ');
const kib = (bytes: number): string => (bytes / 1024).toFixed(1);
const cell = (text: string | number, width: number): string => String(text).padStart(width);

type Kind = 'ours' | 'stripped' | 'plain';

async function main(): Promise<void> {
  const { runs, pages: chosen } = readOptions();
  ensureBuiltSite(projectRoot);
  const sitemap = sitemapPagePaths();
  const unknown = (chosen ?? []).filter((page) => !sitemap.includes(page));
  if (unknown.length > 0) throw new Error(`Not pages of the sitemap: ${unknown.join(', ')}. The sitemap has ${sitemap.join(', ')}.`);
  const pages = chosen ?? sitemap;

  process.stdout.write(`Building a plain Starlight site with the same text…\n`);
  const plain = await buildPlainStarlight(projectRoot, path.join(projectRoot, '.generated/bench-plain-starlight'));
  const strippedRoot = mkdtempSync(path.join(os.tmpdir(), 'bench-mobile-stripped-'));
  for (const page of pages) writeStrippedPage(distDirectory, page, path.join(strippedRoot, page));
  copyFileSync(path.join(distDirectory, 'favicon.svg'), path.join(strippedRoot, 'favicon.svg'));

  // HTTPS with HTTP/2, as the production hosts serve the site: the headers of a page's few
  // responses are compressed across them, as they are for a reader.
  const tls = throwawayCertificate();
  const hosts = {
    ours: await serveLikeAStaticHost(distDirectory, 0, '127.0.0.1', tls),
    stripped: await serveLikeAStaticHost(strippedRoot, 0, '127.0.0.1', tls),
    plain: await serveLikeAStaticHost(plain.distDirectory, 0, '127.0.0.1', tls),
  };
  const { browser, port } = await launchForLighthouse();
  const loadBefore = load();
  const uptimeBefore = os.uptime();
  const figures = new Map<string, Record<Kind, MobileFigures[]>>(pages.map((page) => [page, { ours: [], stripped: [], plain: [] }]));
  const started = performance.now();
  try {
    for (let run = 1; run <= runs; run += 1) {
      for (const page of pages) {
        process.stdout.write(`run ${run} of ${runs}: ${page}\n`);
        const record = figures.get(page);
        if (record === undefined) continue;
        record.ours.push(await lighthouseMobile(`${hosts.ours.origin}${page}`, port));
        record.stripped.push(await lighthouseMobile(`${hosts.stripped.origin}${page}`, port));
        if (plain.pagePaths.has(page)) record.plain.push(await lighthouseMobile(`${hosts.plain.origin}${page}`, port));
      }
    }
  } finally {
    await browser.close();
    await Promise.all(Object.values(hosts).map((host) => host.close()));
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);

  const header = `${'page'.padEnd(44)}${cell('score', 6)}${cell('TBT ms', 8)}${cell('LCP ms', 8)}${cell('elems', 7)}${cell('KiB', 7)}${cell('×strip', 8)}  |${cell('strip', 6)}${cell('TBT', 6)}  |${cell('plain', 6)}${cell('TBT', 6)}${cell('elems', 7)}${cell('KiB', 7)}  aims`;
  // The stripped page runs no script: its blocking time is what the machine's own load adds.
  const lines = [header, '-'.repeat(header.length)];
  let meetingAims = 0;
  const results = [];
  for (const page of pages) {
    const record = figures.get(page);
    const ours = medians(record?.ours ?? []);
    const stripped = medians(record?.stripped ?? []);
    const plainPage = medians(record?.plain ?? []);
    if (ours === undefined || stripped === undefined) continue;
    const overStripped = ours.bytes / stripped.bytes;
    const met = ours.score >= aims.score && ours.totalBlockingTime < aims.totalBlockingTime && overStripped <= aims.bytesOverStripped;
    if (met) meetingAims += 1;
    results.push({ page, ours, stripped, plain: plainPage, overStripped });
    lines.push(
      `${page.padEnd(44)}${cell(ours.score, 6)}${cell(Math.round(ours.totalBlockingTime), 8)}${cell(Math.round(ours.largestContentfulPaint), 8)}${cell(ours.elements, 7)}${cell(kib(ours.bytes), 7)}${cell(overStripped.toFixed(2), 8)}  |` +
        `${cell(stripped.score, 6)}${cell(Math.round(stripped.totalBlockingTime), 6)}  |` +
        (plainPage === undefined ? `${cell('—', 6)}${cell('—', 6)}${cell('—', 7)}${cell('—', 7)}` : `${cell(plainPage.score, 6)}${cell(Math.round(plainPage.totalBlockingTime), 6)}${cell(plainPage.elements, 7)}${cell(kib(plainPage.bytes), 7)}`) +
        `  ${met ? 'met' : 'MISSED'}`,
    );
  }
  const summary = [
    '',
    `Medians of ${runs} Lighthouse ${runs === 1 ? 'run' : 'runs'} per page (mobile preset, simulated throttling, performance only), ${minutes} min.`,
    `Aims: score >= ${aims.score}, total blocking time < ${aims.totalBlockingTime} ms, bytes <= ${aims.bytesOverStripped} x the stripped page: ${meetingAims} of ${results.length} pages meet all three.`,
    `Load average (1, 5, 15 min) on ${os.cpus().length} cores: ${loadBefore} at the start (up ${Math.round(uptimeBefore / 60)} min), ${load()} at the end.`,
  ];
  process.stdout.write(`\n${[...lines, ...summary].join('\n')}\n`);
  const resultsDirectory = path.join(projectRoot, 'bench-results');
  mkdirSync(resultsDirectory, { recursive: true });
  const file = path.join(resultsDirectory, `mobile-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ runs, loadBefore, loadAfter: load(), results }, null, 2)}\n`);
  process.stdout.write(`Figures written to ${path.relative(projectRoot, file)}.\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
