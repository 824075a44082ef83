import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.ts';

/** A port nothing listens on right now, asked of the operating system. */
function freePort(): string {
  return execFileSync(
    process.execPath,
    ['-e', "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"],
    { encoding: 'utf8' },
  ).trim();
}

// Other checkouts on the same machine may be serving too, so no fixed port is safe. The runner
// picks a free one and records it in the environment, which its worker processes inherit, so
// every process reads the same address. E2E_PORT chooses it by hand.
process.env.E2E_PORT ??= freePort();
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Two cores: one build already ran, the preview server and two browsers share them.
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // On CI the HTML report is kept too, for the workflow to upload when a test fails.
  reporter: process.env.CI ? [['line'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
  webServer: {
    // The pages are read as they ship: the production build (made again only when a source is
    // newer than it), served by the server behind
    // `npm run preview` (src/host/static-host.ts), which applies `_headers` as the host does.
    // Both are started directly, not through npm, which has nothing to add but its own notices.
    command: `node scripts/serve-dist.ts --build-if-stale --port ${port}`,
    url: `${baseURL}/`,
    timeout: 5 * 60_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
  },
});
