/**
 * `npm run build:clients`: every client library of `src/clients/packages.ts`, generated from the
 * contract as the gate passed it and packed (a zip for Composer, a tarball for npm); prints each
 * file's path. The site's build publishes the same files (src/integrations/client-downloads.ts).
 *
 *   npm run build:clients -- [--out DIR] [--repository URL]     (default: dist/downloads)
 *
 * --repository names the source repository in the npm manifest, which npm's provenance checks.
 *
 * Exits 1 when the contract fails the gate or a package cannot be packed, 2 on wrong options.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { clientPackages } from '../src/clients/packages.ts';

const usage = 'Usage: npm run build:clients -- [--out DIR] [--repository URL]';
const projectDirectory = path.resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  let values: { out?: string; repository?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string' }, repository: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help === true) {
    console.log(usage);
    return 0;
  }
  const outDirectory = path.resolve(values.out ?? path.join(projectDirectory, 'dist/downloads'));
  try {
    for (const clientPackage of clientPackages) console.log(`${clientPackage.language}: ${await clientPackage.pack(outDirectory, { repository: values.repository })}`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

process.exitCode = await main();
