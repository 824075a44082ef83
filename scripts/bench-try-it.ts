/**
 * What "Try it" costs an action page that is only read: the bytes a browser fetches (as sent,
 * and each response gzipped) and the main thread's blocking time (long tasks past 50 ms until the
 * load event and a second after), median of N loads with an empty cache; then what the first
 * click on "Try it" fetches. It prints figures and never fails on them.
 *   node scripts/bench-try-it.ts [--dist=DIR] [--runs=N]
 * Compare two builds by running it on each: --dist=/path/to/an/older/dist.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { serveLikeAStaticHost } from '../src/host/static-host.ts';
import { loadReferenceModel } from '../src/lib/contract/actions.ts';
import { actionPagePath } from '../src/lib/site/navigation.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { median } from '../src/lib/measures/statistics.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const projectRoot = path.resolve(import.meta.dirname, '..');
const usage = 'Usage: node scripts/bench-try-it.ts [--dist=DIR] [--runs=N (default 7)]';
const { values: options } = scriptArguments(usage, { dist: { type: 'string' }, runs: { type: 'string' } });
const dist = path.resolve(options.dist ?? path.join(projectRoot, 'dist'));
const runs = wholeNumberOption(usage, 'runs', options.runs, 7, 1);

interface Load {
  requests: string[];
  transferred: number;
  gzipped: number;
  blockingMs: number;
}

/** Records every response the page receives from now on: its URL, its bytes as sent and gzipped. */
function recordResponses(page: Page): Load {
  const load: Load = { requests: [], transferred: 0, gzipped: 0, blockingMs: 0 };
  page.on('requestfinished', (request) => {
    void request.sizes().then(async (sizes) => {
      load.requests.push(new URL(request.url()).pathname);
      load.transferred += sizes.responseBodySize + sizes.responseHeadersSize;
      const body = await (await request.response())?.body().catch(() => undefined);
      if (body !== undefined) load.gzipped += gzipSync(body, { level: 9 }).length;
    });
  });
  return load;
}

const model = loadReferenceModel();
const action = model.actions[1] ?? model.actions[0];
if (action === undefined) throw new Error('the contract has no action');
const host = await serveLikeAStaticHost(dist);
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const url = `${host.origin}${actionPagePath(action.identifier)}`;
  const loads: Load[] = [];
  let firstClick: string[] | undefined;
  for (let run = 0; run < runs; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const scope = globalThis as unknown as { blocking: number };
      scope.blocking = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) scope.blocking += Math.max(0, entry.duration - 50);
      }).observe({ type: 'longtask', buffered: true });
    });
    const load = recordResponses(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(1000);
    load.blockingMs = await page.evaluate(() => (globalThis as unknown as { blocking: number }).blocking);
    loads.push({ ...load, requests: [...load.requests] });
    if (run === 0) {
      const button = page.getByRole('button', { name: /try it/i });
      if ((await button.count()) > 0) {
        const before = load.requests.length;
        await button.first().click();
        await page.waitForTimeout(1500);
        firstClick = load.requests.slice(before);
      }
    }
    await context.close();
  }
  console.log(`${url.replace(host.origin, '')} from ${path.relative(process.cwd(), dist) || '.'}, ${runs} loads, empty cache, Chromium ${browser.version()}`);
  console.log(`  requests while read:      ${loads[0]?.requests.sort().join(' ')}`);
  console.log(`  bytes as sent (median):   ${median(loads.map((load) => load.transferred))}`);
  console.log(`  bytes gzipped (median):   ${median(loads.map((load) => load.gzipped))}`);
  console.log(`  blocking time (median):   ${median(loads.map((load) => load.blockingMs)).toFixed(0)} ms (each: ${loads.map((load) => load.blockingMs.toFixed(0)).join(', ')})`);
  console.log(`  fetched on the first click on "Try it": ${firstClick === undefined ? 'no such button' : firstClick.join(' ') || 'nothing'}`);
} finally {
  await browser.close();
  await host.close();
}
