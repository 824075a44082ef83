/**
 * One Lighthouse run with its mobile preset (the default configuration: a mid-range phone, its
 * CPU slowed four times and a slow 4G network, both simulated), performance only, in a browser
 * the bench started with a debugging port.
 */
import { freePort } from '../../src/lib/local-servers.ts';
import { chromium, type Browser } from '@playwright/test';
import lighthouse from 'lighthouse';
import { chromiumLaunchOptions } from '../chromium.ts';

export interface MobileFigures {
  /** Lighthouse's performance score, 0 to 100. */
  score: number;
  totalBlockingTime: number;
  largestContentfulPaint: number;
  /** The elements of the page's DOM, as Lighthouse counts them. */
  elements: number;
  /** Bytes transferred for the page and everything it loads. */
  bytes: number;
}

export interface LighthouseBrowser {
  browser: Browser;
  port: number;
}

/**
 * The browser of the browser tests (scripts/chromium.ts), opened to Lighthouse on a port of its
 * own, accepting the bench's throwaway certificate.
 */
export async function launchForLighthouse(): Promise<LighthouseBrowser> {
  const port = await freePort();
  const options = chromiumLaunchOptions();
  const browser = await chromium.launch({ ...options, args: [...(options.args ?? []), `--remote-debugging-port=${port}`, '--ignore-certificate-errors'] });
  return { browser, port };
}

function numericAudit(audits: Record<string, { numericValue?: number } | undefined>, id: string): number {
  const value = audits[id]?.numericValue;
  if (value === undefined) throw new Error(`Lighthouse gave no figure for ${id}`);
  return value;
}

/** Runs that fail to record their trace (NO_NAVSTART, on a busy machine) are tried again this many times. */
const retries = 2;

export async function lighthouseMobile(url: string, port: number): Promise<MobileFigures> {
  let result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  for (let retry = 1; retry <= retries && result?.lhr.runtimeError !== undefined; retry += 1) {
    process.stdout.write(`  Lighthouse: ${result?.lhr.runtimeError?.code ?? 'no result'} on ${url}, trying again (${retry} of ${retries})\n`);
    result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  }
  if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError !== undefined) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  const score = lhr.categories.performance?.score;
  if (score === undefined || score === null) throw new Error(`Lighthouse gave no performance score for ${url}`);
  return {
    score: Math.round(score * 100),
    totalBlockingTime: numericAudit(lhr.audits, 'total-blocking-time'),
    largestContentfulPaint: numericAudit(lhr.audits, 'largest-contentful-paint'),
    elements: numericAudit(lhr.audits, 'dom-size-insight'),
    bytes: numericAudit(lhr.audits, 'total-byte-weight'),
  };
}
