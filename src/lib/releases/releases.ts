import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { asOpenApiDocument, ContractError, isRecord, type OpenApiDocument } from '../contract/document.ts';

/** Where the released contracts live, relative to the project: one bundled snapshot per release. */
export const releasesDirectory = 'openapi/releases';

/** The index of releases inside `releasesDirectory`: version, date and notes of each. */
export const releaseIndexName = 'releases.yaml';

export interface Release {
  /** `major.minor.patch`, equal to the snapshot's `info.version`. */
  version: string;
  /** Day of the release, `YYYY-MM-DD`. */
  date: string;
  /** A sentence or two about the release, written by whoever cut it. */
  notes?: string;
}

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

/** The release index could not be read, or does not agree with the snapshots beside it. */
export class ReleaseError extends Error {
  /** The file to open, relative to the project. */
  readonly file: string;
  /** What is wrong with it. */
  readonly problem: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'ReleaseError';
    this.file = file;
    this.problem = problem;
  }
}

const versionPattern = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Reads `1.2.3`; pre-release and build suffixes are not used by this contract. */
export function parseVersion(text: string): Version | undefined {
  const match = versionPattern.exec(text);
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

/** Orders two versions: negative when `a` comes first. */
export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The smallest version that announces additions on top of `version`. */
export function nextMinorVersion(version: Version): Version {
  return { major: version.major, minor: version.minor + 1, patch: 0 };
}

export function releaseIndexPath(projectDirectory: string): string {
  return path.join(projectDirectory, releasesDirectory, releaseIndexName);
}

/** The snapshot of a release, relative to the project. */
export function snapshotFile(version: string): string {
  return `${releasesDirectory}/${version}.json`;
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}

/**
 * Reads the release index, oldest release first. Each entry must carry a valid version and date,
 * versions must be unique, and each release must have its snapshot beside the index: the gate
 * compares against these files, so a release without one would silently weaken it.
 */
export function readReleases(projectDirectory = process.cwd()): Release[] {
  const indexFile = `${releasesDirectory}/${releaseIndexName}`;
  const absolute = releaseIndexPath(projectDirectory);
  if (!existsSync(absolute)) {
    throw new ReleaseError(indexFile, 'is missing; it lists the released versions of the contract (see openapi/releases/README.md)');
  }
  let data: unknown;
  try {
    data = parse(readFileSync(absolute, 'utf8'));
  } catch (error) {
    throw new ReleaseError(indexFile, `is not valid YAML: ${(error as Error).message}`);
  }
  if (!isRecord(data) || !Array.isArray(data.releases)) {
    throw new ReleaseError(indexFile, 'must hold a `releases:` list');
  }
  const releases: Release[] = [];
  const seen = new Set<string>();
  data.releases.forEach((entry: unknown, index) => {
    const where = `entry ${index + 1} of \`releases\``;
    if (!isRecord(entry)) throw new ReleaseError(indexFile, `${where} must be a mapping with version and date`);
    const { version, date, notes } = entry;
    if (typeof version !== 'string' || parseVersion(version) === undefined) {
      throw new ReleaseError(indexFile, `${where} needs \`version\` as a quoted "major.minor.patch" string`);
    }
    if (typeof date !== 'string' || !isCalendarDate(date)) {
      throw new ReleaseError(indexFile, `release ${version} needs \`date\` as a quoted "YYYY-MM-DD" string`);
    }
    if (notes !== undefined && typeof notes !== 'string') {
      throw new ReleaseError(indexFile, `release ${version}: \`notes\` must be text`);
    }
    if (seen.has(version)) throw new ReleaseError(indexFile, `release ${version} is listed twice`);
    seen.add(version);
    if (!existsSync(path.join(projectDirectory, snapshotFile(version)))) {
      throw new ReleaseError(indexFile, `release ${version} has no snapshot ${snapshotFile(version)}`);
    }
    releases.push(notes === undefined ? { version, date } : { version, date, notes });
  });
  return releases.sort((a, b) => compareVersions(versionOf(a), versionOf(b)));
}

/** The parsed version of a release read by `readReleases` (which already validated it). */
export function versionOf(release: Release): Version {
  const version = parseVersion(release.version);
  if (version === undefined) throw new ReleaseError(releasesDirectory, `${release.version} is not a version`);
  return version;
}

export function latestRelease(releases: readonly Release[]): Release | undefined {
  return releases.at(-1);
}

/** Loads the bundled snapshot of a release and checks that it is the version it claims to be. */
export function loadSnapshot(projectDirectory: string, release: Release): OpenApiDocument {
  const file = snapshotFile(release.version);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path.join(projectDirectory, file), 'utf8'));
  } catch (error) {
    throw new ReleaseError(file, `cannot be read as JSON: ${(error as Error).message}`);
  }
  let document: OpenApiDocument;
  try {
    document = asOpenApiDocument(parsed, file);
  } catch (error) {
    if (error instanceof ContractError) throw new ReleaseError(file, 'is not an OpenAPI 3.1 document');
    throw error;
  }
  if (document.info.version !== release.version) {
    throw new ReleaseError(file, `has info.version ${document.info.version}, but the index lists it as release ${release.version}`);
  }
  return document;
}
