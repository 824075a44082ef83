/**
 * Holds a library's surface against the surface a release recorded, as a caller of that release
 * would: what the caller named must still be there, take what it passed, in the same order, and
 * give back what it read. A new class, method, exported name or optional parameter at the end is
 * no break; a new member of a result is none either, while a new required member of an input is.
 * Each language says what that means for its own code (`surface.ts` in its folder); this is where
 * each is registered, with the folder whose generator a break of its own comes from.
 */
import { comparePhpSurfaces } from '../php/surface.ts';
import { comparePythonSurfaces } from '../python/surface.ts';
import { compareTypescriptSurfaces } from '../typescript/surface.ts';
import type { ClientSurfaceRecord, ClientSurfaces } from './surface-cache.ts';
import type { SurfaceBreak } from './surface-break.ts';

export type { BreakReport, SurfaceBreak } from './surface-break.ts';

interface SurfaceLanguage<Key extends keyof ClientSurfaces> {
  key: Key;
  /** The language's name as a break and the gate write it. */
  language: string;
  /** The folder of its generator, where a break no line of the contract causes is laid. */
  folder: string;
  compare: (release: ClientSurfaces[Key], current: ClientSurfaces[Key]) => SurfaceBreak[];
}

export const surfaceLanguages = [
  { key: 'php', language: 'PHP', folder: 'src/clients/php/', compare: comparePhpSurfaces } satisfies SurfaceLanguage<'php'>,
  { key: 'typescript', language: 'TypeScript', folder: 'src/clients/typescript/', compare: compareTypescriptSurfaces } satisfies SurfaceLanguage<'typescript'>,
  { key: 'python', language: 'Python', folder: 'src/clients/python/', compare: comparePythonSurfaces } satisfies SurfaceLanguage<'python'>,
] as const;

/** The languages a release's record has no surface of: it was written before they were published. */
export function languagesMissingFrom(record: ClientSurfaceRecord): string[] {
  return surfaceLanguages.filter((entry) => record[entry.key] === undefined).map((entry) => entry.language);
}

/** Every break of every library the record holds, by its language's own comparison. */
export function compareClientSurfaces(record: ClientSurfaceRecord, current: ClientSurfaces): SurfaceBreak[] {
  return surfaceLanguages.flatMap((entry) => {
    const recorded = record[entry.key];
    // Each entry's key and comparison belong together; TypeScript cannot follow that through the union of entries.
    const compare = entry.compare as (release: unknown, current: unknown) => SurfaceBreak[];
    return recorded === undefined ? [] : compare(recorded, current[entry.key]);
  });
}
