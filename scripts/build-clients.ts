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
import { clientPackages } from '../src/clients/packages.ts';
import { readPackOptions } from './pack-options.ts';

const usage = 'Usage: npm run build:clients -- [--out DIR] [--repository URL]';
const projectDirectory = path.resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  const values = readPackOptions(usage);
  if (typeof values === 'number') return values;
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
