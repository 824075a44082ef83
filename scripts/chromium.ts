/**
 * The browser of the end-to-end tests and the benchmark.
 *
 * `node scripts/chromium.ts` is the set-up step of `npm test`: it finds a Chromium (or Chrome),
 * installs Playwright's own where one can be downloaded, or stops with one line naming the
 * command that installs one. `chromiumLaunchOptions()` then picks the same browser.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type LaunchOptions } from '@playwright/test';
import { scriptArguments } from './script-options.ts';

/** Where Debian's, Ubuntu's and Google's packages put the browser, in the order they are tried. */
export const systemChromiumPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
] as const;

/** The one line printed when no browser can be found or installed. */
export const noChromiumMessage =
  "No Chromium for the browser tests, and Playwright's own could not be downloaded: install one with `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable.";

function badChromiumPathMessage(chosen: string): string {
  return `CHROMIUM_PATH is ${chosen}, which does not start a browser: point it at a Chromium or Chrome executable, or unset it.`;
}

export class ChromiumNotFoundError extends Error {
  constructor() {
    const chosen = process.env.CHROMIUM_PATH;
    super(chosen === undefined || chosen === '' ? noChromiumMessage : badChromiumPathMessage(chosen));
    this.name = 'ChromiumNotFoundError';
  }
}

export interface FoundChromium {
  /** The executable, or undefined for Playwright's own browser, which Playwright finds itself. */
  executablePath: string | undefined;
  /** What it is, for the set-up line: `Chromium 156.0.8078.79`. */
  version: string;
  source: 'CHROMIUM_PATH' | 'system' | 'Playwright';
}

/**
 * The browser's own version line, or undefined when it does not start: Ubuntu's
 * `chromium-browser`, for one, is a stub that only asks for a snap.
 */
function versionOf(executable: string): string | undefined {
  if (!existsSync(executable)) return undefined;
  const run = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  const version = run.status === 0 ? run.stdout.trim() : '';
  return /\d+\.\d+/.test(version) ? version : undefined;
}

/**
 * `CHROMIUM_PATH` when it is set (and then only it), otherwise the first system browser that
 * starts, otherwise Playwright's own browser if it is installed.
 */
export function findChromium(): FoundChromium | undefined {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    const version = versionOf(chosen);
    return version === undefined ? undefined : { executablePath: chosen, version, source: 'CHROMIUM_PATH' };
  }
  for (const executable of systemChromiumPaths) {
    const version = versionOf(executable);
    if (version !== undefined) return { executablePath: executable, version, source: 'system' };
  }
  if (existsSync(chromium.executablePath())) {
    return { executablePath: undefined, version: `Playwright's Chromium at ${chromium.executablePath()}`, source: 'Playwright' };
  }
  return undefined;
}

/**
 * Flags for a machine without internet: nothing the browser does on its own (updates, sync,
 * field trials, safe-browsing lists) may reach out, so every request a test sees comes from
 * the page under test.
 */
function closedNetworkArgs(): string[] {
  const args = [
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  // Chromium refuses to start its sandbox as root, which is how containers and CI often run.
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/** Launch options for the browser `findChromium` picks; the one-line error when there is none. */
export function chromiumLaunchOptions(): LaunchOptions {
  const found = findChromium();
  if (found === undefined) throw new ChromiumNotFoundError();
  return found.executablePath === undefined ? { args: closedNetworkArgs() } : { executablePath: found.executablePath, args: closedNetworkArgs() };
}

/** Runs `playwright install chromium`; true when the browser is there afterwards. */
function installPlaywrightChromium(): boolean {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  try {
    // Its progress bars and, where nothing can be downloaded, its stack trace are not shown:
    // the outcome is told in one line either way.
    execFileSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'pipe', timeout: 10 * 60_000 });
  } catch {
    return false;
  }
  return existsSync(chromium.executablePath());
}

function main(): number {
  let found = findChromium();
  const chosen = process.env.CHROMIUM_PATH;
  if (found === undefined && (chosen === undefined || chosen === '') && installPlaywrightChromium()) found = findChromium();
  if (found === undefined) {
    console.error(new ChromiumNotFoundError().message);
    return 1;
  }
  const where = found.executablePath === undefined ? '' : ` (${found.executablePath}, from ${found.source === 'system' ? 'the system' : 'CHROMIUM_PATH'})`;
  console.log(`Browser tests run in ${found.version}${where}.`);
  return 0;
}

if (import.meta.main) {
  scriptArguments('Usage: node scripts/chromium.ts (no options; CHROMIUM_PATH names a browser to use)', {});
  process.exitCode = main();
}
