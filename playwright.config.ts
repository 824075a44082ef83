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

// Other checkouts on the same machine may be previewing too, so no fixed port is safe. The
// runner picks free ones and records them in the environment, which its worker processes
// inherit, so every process reads the same addresses. E2E_PORT and E2E_HOST_PORT choose them
// by hand.
process.env.E2E_PORT ??= freePort();
process.env.E2E_HOST_PORT ??= freePort();
const port = Number(process.env.E2E_PORT);
const hostPort = Number(process.env.E2E_HOST_PORT);
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
  reporter: process.env.CI ? [['line']] : [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      // The pages are read as they ship: the production build, served by `astro preview`.
      command: `npm run build && npm run preview -- --port ${port} --host 127.0.0.1`,
      url: `${baseURL}/`,
      timeout: 5 * 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
    {
      // The same build as a static host serves it, `_headers` included, for the crawler tests:
      // `astro preview` cannot serve `/.well-known/api-catalog` (see scripts/serve-dist.ts).
      // It starts once the first server, and so the build, is ready.
      command: `node_modules/.bin/node scripts/serve-dist.ts --port=${hostPort}`,
      url: `http://127.0.0.1:${hostPort}/`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
  ],
});
