/**
 * The one comparison of two versions of the contract: Redocly's own `redocly diff`, with the rules
 * and impacts of `redocly.yaml`. The gate judges its verdicts (src/gate/compatibility.ts) and the
 * changelog tells its changes (./contract-changes.ts); nothing else compares two documents.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runRedocly } from '../contract/bundle.ts';
import { isRecord, type OpenApiDocument } from '../contract/document.ts';
import type { ChangeImpact } from './comparison.ts';

/** A place Redocly points at: in the base document or in the revision. */
export interface DiffLocation {
  file: string;
  pointer: string;
}

export interface DiffVerdict {
  ruleId: string;
  impact: ChangeImpact;
  message: string;
  location?: DiffLocation;
}

/** One entry of `redocly diff --format json`, reduced to what its readers use. */
export interface DiffChange {
  /** Where Redocly met the change, walking from the paths: `#/paths/~1action/post/responses/200/…`. */
  path: string;
  kind: string;
  impact: ChangeImpact;
  /** The keyword that changed, for a `modified` change: `enum`, `required`, `additionalProperties`… */
  property?: string;
  verdicts: DiffVerdict[];
  baseValue?: unknown;
  revisionValue?: unknown;
  /** Where the base has the changed node (the keyword itself when it is there). */
  basePointer?: string;
  /** Where the revision has it: the node itself, or its parent when the keyword went away. */
  revisionPointer?: string;
}

const impacts: readonly ChangeImpact[] = ['patch', 'minor', 'major'];

export function isImpact(value: unknown): value is ChangeImpact {
  return typeof value === 'string' && (impacts as readonly string[]).includes(value);
}

/** The highest of some impacts, or undefined for none. */
export function highestImpact(values: Iterable<ChangeImpact>): ChangeImpact | undefined {
  let result: ChangeImpact | undefined;
  for (const value of values) if (result === undefined || impacts.indexOf(value) > impacts.indexOf(result)) result = value;
  return result;
}

function locationOf(value: unknown): DiffLocation | undefined {
  if (!isRecord(value) || typeof value.file !== 'string' || typeof value.pointer !== 'string') return undefined;
  return { file: value.file, pointer: value.pointer };
}

function sideOf(raw: unknown, prefix: 'base' | 'revision'): Partial<DiffChange> {
  if (!isRecord(raw)) return {};
  return {
    ...('value' in raw ? { [`${prefix}Value`]: raw.value } : {}),
    ...(typeof raw.pointer === 'string' ? { [`${prefix}Pointer`]: raw.pointer } : {}),
  };
}

/** Narrows Redocly's JSON report (report version 1) to the fields used here, or says what is off. */
export function readDiffReport(text: string): DiffChange[] {
  const report: unknown = JSON.parse(text);
  if (!isRecord(report) || report.reportVersion !== '1' || !Array.isArray(report.changes)) {
    throw new Error('Redocly diff answered with a report this project does not know (expected `reportVersion: "1"` and `changes`)');
  }
  return report.changes.map((raw: unknown): DiffChange => {
    if (!isRecord(raw) || typeof raw.path !== 'string' || typeof raw.kind !== 'string' || !isImpact(raw.impact)) {
      throw new Error('Redocly diff reported a change without `path`, `kind` and `impact`');
    }
    const verdicts = (Array.isArray(raw.verdicts) ? raw.verdicts : []).flatMap((verdict: unknown): DiffVerdict[] => {
      if (!isRecord(verdict) || typeof verdict.ruleId !== 'string' || !isImpact(verdict.impact) || typeof verdict.message !== 'string') return [];
      const location = locationOf(verdict.location);
      return [{ ruleId: verdict.ruleId, impact: verdict.impact, message: verdict.message, ...(location === undefined ? {} : { location }) }];
    });
    return {
      path: raw.path,
      kind: raw.kind,
      impact: raw.impact,
      ...(typeof raw.property === 'string' ? { property: raw.property } : {}),
      verdicts,
      ...sideOf(raw.base, 'base'),
      ...sideOf(raw.revision, 'revision'),
    };
  });
}

/** Runs `redocly diff` on two files; `baseName` says in an error what the revision was compared with. */
export function runRedoclyDiff(projectDirectory: string, basePath: string, revisionPath: string, baseName: string): DiffChange[] {
  // The report goes to a file, not through a pipe: it grows with the document (about 2 MiB for
  // 200 actions), past what a child process's output buffer holds.
  const reportDirectory = mkdtempSync(path.join(tmpdir(), 'redocly-diff-'));
  const reportPath = path.join(reportDirectory, 'diff.json');
  try {
    // `--fail-on none`: Redocly reports, and its readers decide.
    runRedocly(['diff', basePath, revisionPath, '--format', 'json', '--output', reportPath, '--fail-on', 'none', '--lint-config=error'], projectDirectory);
    return readDiffReport(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    const failure = error as { stderr?: string; message?: string };
    throw new Error(`Redocly diff could not compare the contract with ${baseName}: ${(failure.stderr || failure.message || '').trim()}`);
  } finally {
    rmSync(reportDirectory, { recursive: true, force: true });
  }
}

/** Runs `redocly diff` on two documents held in memory, each written to a file of its own first. */
export function diffDocuments(projectDirectory: string, base: OpenApiDocument, revision: OpenApiDocument, baseName: string): DiffChange[] {
  const directory = mkdtempSync(path.join(tmpdir(), 'redocly-revision-'));
  try {
    const basePath = path.join(directory, 'base.json');
    const revisionPath = path.join(directory, 'revision.json');
    writeFileSync(basePath, JSON.stringify(base));
    writeFileSync(revisionPath, JSON.stringify(revision));
    return runRedoclyDiff(projectDirectory, basePath, revisionPath, baseName);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
