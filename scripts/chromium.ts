import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

/** Where Debian's package puts Chromium; `CHROMIUM_PATH` points elsewhere. */
export const defaultChromiumPath = '/usr/bin/chromium';

export class ChromiumNotFoundError extends Error {}

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

/**
 * Chooses the browser for the end-to-end tests and the benchmark: the Chromium named by
 * `CHROMIUM_PATH` (Debian's by default) when it exists, otherwise the one Playwright installs
 * itself. When neither exists the error says how to get one, instead of Playwright's generic
 * "Executable doesn't exist" deep inside the first test.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  const systemChromium = process.env.CHROMIUM_PATH ?? defaultChromiumPath;
  if (existsSync(systemChromium)) {
    return { executablePath: systemChromium, args: closedNetworkArgs() };
  }
  if (existsSync(chromium.executablePath())) {
    return { args: closedNetworkArgs() };
  }
  throw new ChromiumNotFoundError(
    `No Chromium found: neither ${systemChromium} (CHROMIUM_PATH) nor Playwright's own browser at ` +
      `${chromium.executablePath()} exists. Install one with \`apt-get install chromium\` ` +
      '(Debian, Ubuntu) or `npx playwright install chromium`, or set CHROMIUM_PATH to a ' +
      'Chromium or Chrome executable.',
  );
}
