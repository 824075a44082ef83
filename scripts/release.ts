/**
 * `npm run release`: cuts a release of the contract at its current `info.version`.
 *
 *   node scripts/release.ts [--date YYYY-MM-DD] [--notes "text"] [--project <dir>]
 *
 * Refuses when the version is already released or the gate (`npm run lint`) fails; otherwise
 * writes the bundled snapshot `openapi/releases/<version>.json`, the record of its client
 * libraries' surfaces `openapi/releases/<version>.clients.json` (src/clients/surface/), and adds
 * the version to `openapi/releases/releases.yaml`. Exits 0 on a release, 1 on a refusal, 2 on unknown options.
 * See openapi/releases/README.md.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scriptArguments } from './script-options.ts';
import { isSeq, parseDocument, Scalar } from 'yaml';
import { bundleContract, ContractBundleError, contractRoot } from '../src/lib/contract/bundle.ts';
import { asOpenApiDocument } from '../src/lib/contract/document.ts';
import {
  compareVersions,
  latestRelease,
  parseVersion,
  readReleases,
  ReleaseError,
  releaseIndexPath,
  releasesDirectory,
  snapshotFile,
  versionOf,
  type Release,
} from '../src/lib/releases/releases.ts';
import { runGate } from '../src/gate/run-gate.ts';
import { writeClientSurfaceRecord } from '../src/clients/surface/surfaces.ts';

/** The release was not cut; the message says why and what to do. */
export class ReleaseRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseRefused';
  }
}

export interface ReleaseOptions {
  projectDirectory: string;
  /** `YYYY-MM-DD`; today (UTC) when missing. */
  date?: string;
  notes?: string;
}

export interface CutRelease {
  release: Release;
  /** The snapshot written, relative to the project. */
  snapshot: string;
  /** The record of the libraries' surfaces written beside it, relative to the project. */
  clients: string;
}

/** Where the release bundles the contract before keeping it (ignored by git). */
const releaseBundleDirectory = '.generated/release';

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Adds the release to the index, keeping the file's comments and layout. */
function addToIndex(projectDirectory: string, release: Release): void {
  const file = releaseIndexPath(projectDirectory);
  const index = parseDocument(readFileSync(file, 'utf8'));
  const list = index.get('releases', true);
  if (!isSeq(list)) throw new ReleaseRefused(`${releasesDirectory}/releases.yaml: \`releases\` is not a list`);
  // Quoted, so that YAML never reads a version or a date as a number or a timestamp.
  const quoted = (text: string): Scalar => Object.assign(new Scalar(text), { type: Scalar.QUOTE_DOUBLE });
  const entry = index.createNode({ version: quoted(release.version), date: quoted(release.date), ...(release.notes === undefined ? {} : { notes: release.notes }) });
  list.flow = false;
  list.add(entry);
  writeFileSync(file, index.toString({ lineWidth: 0 }));
}

/**
 * Cuts the release the contract's `info.version` names: the contract must pass the whole gate
 * (which also compares it with the latest release), and the version must be new.
 */
export async function cutRelease(options: ReleaseOptions): Promise<CutRelease> {
  const projectDirectory = path.resolve(options.projectDirectory);
  const date = options.date ?? today();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new ReleaseRefused(`--date ${date} is not a day of the form YYYY-MM-DD`);
  }

  let releases: Release[];
  try {
    releases = readReleases(projectDirectory);
  } catch (error) {
    if (error instanceof ReleaseError) throw new ReleaseRefused(error.message);
    throw error;
  }

  let bundle;
  try {
    bundle = bundleContract(projectDirectory, contractRoot, releaseBundleDirectory);
  } catch (error) {
    if (error instanceof ContractBundleError) throw new ReleaseRefused(`The contract does not bundle; run npm run lint for details.\n${error.message}`);
    throw error;
  }
  const document = asOpenApiDocument(bundle.document, bundle.jsonPath);
  const version = document.info.version;
  const parsed = parseVersion(version);
  if (parsed === undefined) throw new ReleaseError(contractRoot, `info.version "${version}" is not major.minor.patch`);
  const snapshot = snapshotFile(version);
  if (releases.some((release) => release.version === version) || existsSync(path.join(projectDirectory, snapshot))) {
    throw new ReleaseRefused(`Version ${version} is already released (${snapshot}). Raise info.version in ${contractRoot} to release the changes since.`);
  }
  const latest = latestRelease(releases);
  if (latest !== undefined && compareVersions(parsed, versionOf(latest)) < 0) {
    throw new ReleaseRefused(`Version ${version} is lower than the latest release, ${latest.version}.`);
  }

  const gate = await runGate({ projectDirectory });
  if (!gate.ok) {
    const problems = gate.problems.map((problem) => `  ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.message}`);
    throw new ReleaseRefused(`The contract fails the gate, so ${version} is not released:\n${problems.join('\n')}`);
  }

  const release: Release = { version, date, ...(options.notes === undefined ? {} : { notes: options.notes }) };
  // The snapshot is the bundler's own output, byte for byte.
  copyFileSync(bundle.jsonPath, path.join(projectDirectory, snapshot));
  const clients = writeClientSurfaceRecord(projectDirectory, version, document, snapshot);
  addToIndex(projectDirectory, release);
  return { release, snapshot, clients };
}

async function main(): Promise<number> {
  const usage = 'Usage: node scripts/release.ts [--date YYYY-MM-DD] [--notes "text"] [--project <dir>] (npm run release -- …)';
  const { values } = scriptArguments(usage, { date: { type: 'string' }, notes: { type: 'string' }, project: { type: 'string' } });
  try {
    const { release, snapshot, clients } = await cutRelease({
      projectDirectory: values.project ?? process.cwd(),
      ...(values.date === undefined ? {} : { date: values.date }),
      ...(values.notes === undefined ? {} : { notes: values.notes }),
    });
    console.log(`✔ Released ${release.version} on ${release.date}: wrote ${snapshot} and ${clients}, and added it to ${releasesDirectory}/releases.yaml. Commit the three.`);
    return 0;
  } catch (error) {
    if (error instanceof ReleaseRefused || error instanceof ReleaseError) {
      console.error(`✖ ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) process.exitCode = await main();
