/**
 * What the gate needs of the libraries' surfaces before it generates anything: the record a release
 * keeps beside its snapshot, and the cache of surfaces and verdicts in `.generated/client-surfaces/`
 * keyed by the hash of the document and of the generators' sources. Kept apart from surfaces.ts,
 * which loads the generators and the TypeScript compiler, so that a gate whose answer is cached
 * loads neither.
 */
import { createHash } from 'node:crypto';
import { existsSync, globSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { releasesDirectory } from '../../lib/releases/releases.ts';
import type { PhpSurface } from '../php/surface.ts';
import type { PythonSurface } from '../python/surface.ts';
import type { TypescriptSurface } from '../typescript/surface.ts';

export interface ClientSurfaces {
  php: PhpSurface;
  typescript: TypescriptSurface;
  python: PythonSurface;
}

/** What a release records of its libraries; a record written before the Python library has no `python`. */
export interface ClientSurfaceRecord extends Omit<ClientSurfaces, 'python'> {
  python?: PythonSurface;
  /** The release's version, which every library carries. */
  version: string;
  /** The snapshot the libraries were generated from, relative to the project. */
  generatedFrom: string;
}

/** The record of a release's libraries, relative to the project. */
export function clientSurfaceRecordFile(version: string): string {
  return `${releasesDirectory}/${version}.clients.json`;
}

/** The command that (re)writes a release's record from its snapshot. */
export function recordCommand(version: string): string {
  return `node scripts/record-client-surfaces.ts --version ${version}`;
}

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const cacheDirectory = '.generated/client-surfaces';

/**
 * Every source the generators and the readers of their surfaces read: the libraries' own (the
 * Python runtime's `.py` files and the Python reader too) and the model's. A change to any of them
 * may change a surface. The libraries' own tests are none of them.
 */
let generatorHash: string | undefined;
export function generatorSourcesHash(): string {
  if (generatorHash === undefined) {
    const hash = createHash('sha256');
    const files = globSync('src/{clients,lib}/**/*.{ts,py}', { cwd: projectRoot })
      .filter((file) => !file.endsWith('.test.ts') && !file.split(path.sep).includes('tests'))
      .sort();
    for (const file of files) hash.update(file).update('\0').update(readFileSync(path.join(projectRoot, file))).update('\0');
    generatorHash = hash.digest('hex');
  }
  return generatorHash;
}

/** A value kept under `key`, or undefined when none is (or it cannot be read). */
export function readCached<T>(key: string): T | undefined {
  const cached = path.join(projectRoot, cacheDirectory, `${key}.json`);
  if (!existsSync(cached)) return undefined;
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as T;
  } catch {
    // A half-written cache file (two gates at once) is computed again.
    return undefined;
  }
}

/**
 * A value computed once per key and kept in `.generated/client-surfaces/` of the repository the
 * generators live in: a key covers the document and the generators' sources, so every copy of the
 * project a test makes shares what the repository has computed.
 */
export function cachedResult<T>(key: string, compute: () => T): T {
  const cached = path.join(projectRoot, cacheDirectory, `${key}.json`);
  if (existsSync(cached)) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as T;
    } catch {
      // A half-written cache file (two gates at once) is computed again.
    }
  }
  const value = compute();
  mkdirSync(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(value));
  renameSync(partial, cached);
  return value;
}

/** A short hash of some texts, for a cache key. */
export function hashOf(...texts: string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** Reads a release's record; undefined when the release has none. */
export function readClientSurfaceRecord(projectDirectory: string, version: string): ClientSurfaceRecord | undefined {
  const file = path.join(projectDirectory, clientSurfaceRecordFile(version));
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ClientSurfaceRecord;
}
