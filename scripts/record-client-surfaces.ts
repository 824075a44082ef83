/**
 * Writes the record of a release's client libraries, `openapi/releases/<version>.clients.json`:
 * every library generated from the release's snapshot by today's generators, and their public
 * surfaces read as a caller sees them (src/clients/surface/). `npm run release` writes it with the
 * snapshot; this command writes it again for a release already cut, after a change to a generator
 * that version 1's callers are meant to see (see openapi/releases/README.md).
 *
 *   node scripts/record-client-surfaces.ts --version 1.0.0 [--project <dir>]
 *
 * Exits 0 when written, 1 when the release or its snapshot is missing or python3 is (the Python
 * library's surface is read with it), 2 on wrong options.
 */
import path from 'node:path';
import { PythonUnavailableError } from '../src/clients/python/surface-reader.ts';
import { writeClientSurfaceRecord } from '../src/clients/surface/surfaces.ts';
import { loadSnapshot, readReleases, ReleaseError, snapshotFile } from '../src/lib/releases/releases.ts';
import { scriptArguments } from './script-options.ts';

const usage = 'Usage: node scripts/record-client-surfaces.ts --version <released version> [--project <dir>]';

function main(): number {
  const { values } = scriptArguments(usage, { version: { type: 'string' }, project: { type: 'string' } });
  if (values.version === undefined) {
    console.error(`--version is required.\n${usage}`);
    return 2;
  }
  const projectDirectory = path.resolve(values.project ?? process.cwd());
  try {
    const release = readReleases(projectDirectory).find((candidate) => candidate.version === values.version);
    if (release === undefined) {
      console.error(`✖ ${values.version} is not a release in openapi/releases/releases.yaml.`);
      return 1;
    }
    const file = writeClientSurfaceRecord(projectDirectory, release.version, loadSnapshot(projectDirectory, release), snapshotFile(release.version));
    console.log(`✔ Wrote ${file}: the PHP, TypeScript and Python libraries' surfaces of release ${release.version}. Commit it.`);
    return 0;
  } catch (error) {
    // Without python3 the Python library's surface cannot be read: the error says how to install it.
    if (error instanceof ReleaseError || error instanceof PythonUnavailableError) {
      console.error(`✖ ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) process.exitCode = main();
