/**
 * Serves the built site (`dist/`) the way a static host would; see `serveLikeAStaticHost`.
 * `node scripts/serve-dist.ts --port=4500`. The browser tests read the discovery files through
 * it, because `astro preview` answers 404 for a file without an extension, such as
 * `/.well-known/api-catalog`, when the site uses `trailingSlash: 'always'`.
 */
import path from 'node:path';
import { serveLikeAStaticHost } from './static-host.ts';

const portArgument = process.argv.find((argument) => argument.startsWith('--port='));
const port = portArgument === undefined ? 0 : Number(portArgument.slice('--port='.length));
if (!Number.isInteger(port) || port < 0) throw new Error('--port must be a port number');

const site = await serveLikeAStaticHost(path.resolve(import.meta.dirname, '../dist'), port);
process.stdout.write(`Serving dist/ at ${site.origin}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void site.close().then(() => process.exit(0)));
}
