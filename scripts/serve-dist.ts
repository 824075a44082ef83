/**
 * `npm run preview`: serves the built site (`dist/`) the way the production host does, `_headers`
 * included (see `serveLikeAStaticHost`). The browser tests and the benchmark use the same server.
 *
 *   node scripts/serve-dist.ts [--port 4321] [--host 127.0.0.1] [--build-if-stale]
 *
 * `--build-if-stale` builds first when `dist/` is missing or older than a source, as the browser
 * tests ask: after the integration tier has built the site, they serve it as it is.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { serveLikeAStaticHost } from '../src/host/static-host.ts';

const usage = 'Usage: npm run preview -- [--port <number>] [--host <address>] [--build-if-stale]';
let values: { port?: string; host?: string; 'build-if-stale'?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '4321' },
      host: { type: 'string', default: '127.0.0.1' },
      'build-if-stale': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help === true) {
  console.log(usage);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, not "${values.port}".\n${usage}`);
  process.exit(2);
}
const projectDirectory = path.resolve(import.meta.dirname, '..');
if (values['build-if-stale'] === true) ensureBuiltSite(projectDirectory, (line) => console.error(line));
const distDirectory = path.join(projectDirectory, 'dist');
if (!existsSync(distDirectory)) {
  console.error('There is no dist/ to serve yet: run `npm run build` first.');
  process.exit(1);
}

const site = await serveLikeAStaticHost(distDirectory, port, values.host);
console.log(`Serving dist/ as the host will at ${site.origin}/ (Ctrl+C stops)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void site.close().then(() => process.exit(0)));
}
