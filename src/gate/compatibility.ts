/**
 * The third step of `npm run lint`: version 1 only grows. The bundled contract is compared with
 * the latest release in `openapi/releases/` by Redocly's own `diff` command (rules and impacts in
 * `redocly.yaml`), with two checks of our own beside it for what Redocly cannot see, and the
 * result decides whether the change breaks v1 or which `info.version` it needs.
 */
import path from 'node:path';
import { mergedByAction } from '../lib/releases/changelog.ts';
import { indexUses } from '../lib/releases/document-uses.ts';
import { whereChanged } from '../lib/releases/field-sentences.ts';
import {
  constraintKeywords,
  describeChanges,
  impactsBeyondRedocly,
  judgedBeyondRedocly,
  type ChangeImpact,
  type ContractChange,
} from '../lib/releases/contract-changes.ts';
import { isRecord, resolvePointer, type OpenApiDocument } from '../lib/contract/document.ts';
import { extensibleValues } from '../lib/contract/extensible-enum.ts';
import {
  compareVersions,
  formatVersion,
  latestRelease,
  loadSnapshot,
  nextMinorVersion,
  parseVersion,
  readReleases,
  ReleaseError,
  snapshotFile,
  versionOf,
  type Release,
} from '../lib/releases/releases.ts';
import { diffDocuments, highestImpact, runRedoclyDiff, type DiffChange, type DiffVerdict } from '../lib/releases/redocly-diff.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator } from './source-files.ts';

/** True for a change Redocly found under a response of an operation, rather than in a request. */
function isInResponse(change: DiffChange): boolean {
  return /\/responses\/[^/]+(\/|$)/.test(change.path);
}

/** The schema the revision holds where a change was found, whichever way Redocly pointed at it. */
function revisionSchema(change: DiffChange, revision: OpenApiDocument): Record<string, unknown> | undefined {
  if (change.revisionPointer === undefined) return undefined;
  const suffix = change.property === undefined ? undefined : `/${change.property}`;
  const pointer = suffix !== undefined && change.revisionPointer.endsWith(suffix) ? change.revisionPointer.slice(0, -suffix.length) : change.revisionPointer;
  try {
    const node = resolvePointer(revision, pointer);
    return isRecord(node) ? node : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Responses are open to additions: a client ignores the fields and the values it does not know
 * (Zalando's RESTful API guidelines, rules 108 and 112; the versioning page says the same).
 * Redocly rates two changes `major` that only write this down, since a client validating with
 * the older document could refuse what the newer one allows. In a response they count as
 * additive instead: `additionalProperties: false` taken away, and a closed `enum` turned into an
 * extensible one that still lists every value it had. Anywhere else, in a request above all,
 * Redocly's rating stands: requests stay strict.
 */
function opensResponse(change: DiffChange, verdict: DiffVerdict, revision: OpenApiDocument): boolean {
  if (!isInResponse(change)) return false;
  const schema = revisionSchema(change, revision);
  if (schema === undefined) return false;
  if (verdict.ruleId === 'schema-constraint-changed' && change.property === 'additionalProperties') {
    return change.baseValue === false && (schema.additionalProperties === undefined || schema.additionalProperties === true);
  }
  if (verdict.ruleId === 'enum-values-added' && change.property === 'enum') {
    const known = extensibleValues(schema);
    return known !== undefined && Array.isArray(change.baseValue) && change.baseValue.every((value) => known.includes(value as string));
  }
  return false;
}

/** Keywords whose addition only takes values away from what a schema accepts, or only adds words. */
const narrowingKeywords = new Set([...constraintKeywords, 'description', 'title']);

/**
 * Redocly cannot pair a `oneOf` branch with its edited self: it reports the old branch removed
 * and the new one added, and rates the addition major. When the branch is in a response and the
 * edit only adds constraints (or words), the server promises fewer values than before and a
 * client reads every one of them as it did, so that verdict counts as a patch. This is how the
 * Retry-After header's HTTP-date branch gained its pattern without breaking release 1.0.0.
 */
function isNarrowedResponseBranch(change: DiffChange, verdict: DiffVerdict, changes: readonly DiffChange[]): boolean {
  if (verdict.ruleId !== 'schema-combinator-changed' || change.kind !== 'added' || !change.path.includes('/responses/')) return false;
  if (!/\/(oneOf|anyOf)\/\d+$/.test(change.path)) return false;
  const removed = changes.find((candidate) => candidate.path === change.path && candidate.kind === 'removed');
  const before = removed?.baseValue;
  const after = change.revisionValue;
  if (!isRecord(before) || !isRecord(after)) return false;
  const kept = Object.entries(before).every(([key, value]) => key === 'description' || key === 'title' || JSON.stringify(after[key]) === JSON.stringify(value));
  const added = Object.keys(after).filter((key) => !(key in before));
  return kept && added.every((key) => narrowingKeywords.has(key));
}

/** True for a change Redocly found in a request body. */
function isInRequest(change: DiffChange): boolean {
  return change.path.includes('/requestBody/');
}

/**
 * The keywords by which a request schema limits what a client sends. A change Redocly does not
 * rate breaking there is a request that accepts more: an addition, so a minor version (Semantic
 * Versioning 2.0.0, item 7), as a wider lifecycle table is, rather than a patch.
 */
const requestLimits = new Set([...constraintKeywords, 'required', 'enum', 'const']);

/** The impact a Redocly verdict has in this gate: its own, except for the readings above. */
function verdictImpact(change: DiffChange, verdict: DiffVerdict, changes: readonly DiffChange[], revision: OpenApiDocument): ChangeImpact {
  if (verdict.impact === 'major' && opensResponse(change, verdict, revision)) return 'minor';
  if (isNarrowedResponseBranch(change, verdict, changes)) return 'patch';
  return verdict.impact;
}

/** The impact of one of Redocly's changes in this gate: the highest of its verdicts as read above, or its own. */
function changeImpact(change: DiffChange, changes: readonly DiffChange[], revision: OpenApiDocument): ChangeImpact {
  const judged = highestImpact(change.verdicts.map((verdict) => verdictImpact(change, verdict, changes, revision))) ?? change.impact;
  const loosened = change.kind === 'modified' && change.property !== undefined && requestLimits.has(change.property);
  return judged === 'patch' && loosened && isInRequest(change) ? 'minor' : judged;
}

/**
 * The impact of a revision against a base, judged as the gate judges a release: by Redocly's
 * diff, and by the table above for what Redocly cannot see. `undefined` when nothing changed.
 */
export function rateRevision(projectDirectory: string, base: OpenApiDocument, revision: OpenApiDocument): ChangeImpact | undefined {
  const redoclyChanges = diffDocuments(projectDirectory, base, revision, 'the base document');
  const impacts = redoclyChanges.map((change) => changeImpact(change, redoclyChanges, revision));
  // Redocly's diff is the one judge of what breaks v1, except where it cannot look.
  for (const { impact } of impactsBeyondRedocly(base, revision)) impacts.push(impact);
  return highestImpact(impacts);
}

export interface CompatibilityReport {
  /** The release compared with, or undefined before the first release. */
  release?: Release;
  problems: GateProblem[];
  /** The highest impact found: what kind of release the current contract would be. */
  impact?: ChangeImpact;
  /** What changed since the release, in a client developer's terms. */
  changes: ContractChange[];
}

/** How the problems of this step name the rules they guard (src/lib/spec-rules.ts). */
const breakingRule = 'compatibility: rule 9.2, 9.3';
const versionRule = 'compatibility: rule 9.4';
const releasesRule = 'compatibility: openapi/releases/README.md';

/**
 * What a breaking change does to a client, where Redocly's words only name the schema's edit: a
 * value added to a closed list of a response (`oneOf` of constants, `enum`) reaches a client that
 * switches on that member with a value it has no case for.
 */
function consequenceFor(change: DiffChange, verdict: DiffVerdict): string {
  if (!change.path.includes('/responses/') || change.kind !== 'added') return '';
  const member = /\/properties\/([^/]+)\/(?:(?:oneOf|anyOf)\/\d+|enum(?:\/\d+)?)$/.exec(change.path)?.[1];
  if (member === undefined || !['schema-combinator-changed', 'enum-values-added'].includes(verdict.ruleId)) return '';
  return `: a client that switches on \`${member}\` meets a value it does not know`;
}

function breakingMessage(release: Release, what: string, where: string): string {
  return `breaks release ${release.version}: ${what.replace(/\.$/, '')}${where}. Version 1 only takes additive changes; a breaking change needs a new version namespace.`;
}

/** The changes, told in the changelog's sentences, for the version message; nothing in them breaks v1 by then. */
function additiveSummary(changes: ContractChange[], redoclyAdditions: DiffChange[]): string {
  const sentences = mergedByAction(changes.filter((change) => change.category !== 'removed')).map((entry) => entry.sentence.replace(/\.$/, ''));
  if (sentences.length === 0) {
    sentences.push(...redoclyAdditions.map((change) => `the ${change.kind} \`${change.path}\` (Redocly rates it minor)`));
  }
  const shown = sentences.slice(0, 5).join('; ');
  return sentences.length > 5 ? `${shown}; and ${sentences.length - 5} more` : shown;
}

/** Compares the bundled contract with the latest release; see the module comment. */
export function checkCompatibility(context: GateContext): CompatibilityReport {
  const { projectDirectory, root, document } = context;
  let releases: Release[];
  try {
    releases = readReleases(projectDirectory);
  } catch (error) {
    if (error instanceof ReleaseError) return { problems: [{ file: error.file, message: error.problem, rule: releasesRule }], changes: [] };
    throw error;
  }
  const release = latestRelease(releases);
  // Before the first release there is nothing to stay compatible with (see openapi/releases/README.md).
  if (release === undefined) return { problems: [], changes: [] };

  let base: OpenApiDocument;
  let redoclyChanges: DiffChange[];
  try {
    base = loadSnapshot(projectDirectory, release);
    redoclyChanges = runRedoclyDiff(projectDirectory, snapshotFile(release.version), context.bundlePath, `release ${release.version}`);
  } catch (error) {
    if (error instanceof ReleaseError) return { release, problems: [{ file: error.file, message: error.problem, rule: releasesRule }], changes: [] };
    return { release, problems: [{ file: 'redocly.yaml', message: (error as Error).message, rule: 'Redocly diff' }], changes: [] };
  }

  // Walked once: the changelog's sentences and the breaking messages' places both read it.
  const uses = { base: indexUses(base), revision: indexUses(document) };
  const changes = describeChanges(base, document, redoclyChanges, uses);
  const removedActions = changes.filter((change) => change.kind === 'action-removed');

  const locate = createSourceLocator(projectDirectory, root);
  const problems: GateProblem[] = [];
  const effectiveImpacts: ChangeImpact[] = [];
  const redoclyAdditions: DiffChange[] = [];
  const releaseSnapshot = path.resolve(projectDirectory, snapshotFile(release.version));
  for (const change of redoclyChanges) {
    const verdictImpacts = change.verdicts.map((verdict) => {
      const impact = verdictImpact(change, verdict, redoclyChanges, document);
      if (impact === 'major') {
        const location = verdict.location;
        const inRelease = location !== undefined && path.resolve(projectDirectory, location.file) === releaseSnapshot;
        // What was removed exists only in the release, so the source is searched for the place that
        // held it: its parent. (Looking for the item itself could find its successor in a list.)
        const place = location === undefined ? { file: root } : locate(inRelease ? location.pointer.replace(/\/[^/]*$/, '') : location.pointer);
        const where = inRelease ? ` (it was at ${location.pointer} in ${snapshotFile(release.version)})` : '';
        // Redocly sees a removed action only as a `oneOf` branch gone, so the changelog names it;
        // and a field by its place in a request or a response rather than by the schema's name alone.
        const heldBy = whereChanged(change, { base, revision: document }, uses);
        const named = change.path.includes('/oneOf/')
          ? removedActions.map((removed) => ` (${removed.sentence.replace(/\.$/, '')})`).join('')
          : heldBy === '' ? '' : ` (${heldBy})`;
        problems.push({ ...place, message: breakingMessage(release, `${verdict.message.replace(/\.$/, '')}${consequenceFor(change, verdict)}${named}`, where), rule: `${breakingRule}; Redocly diff rule ${verdict.ruleId}` });
      }
      return impact;
    });
    const impact = verdictImpacts.includes('major') ? 'major' : changeImpact(change, redoclyChanges, document);
    if (impact === 'minor') redoclyAdditions.push(change);
    effectiveImpacts.push(impact);
  }
  // What Redocly cannot see (the lifecycle table, deprecations) is judged by the releases' one table of it.
  for (const change of changes) {
    const judged = judgedBeyondRedocly[change.kind];
    if (judged === undefined) continue;
    if (judged.impact === 'major') {
      const place = change.pointer === undefined ? { file: root } : locate(change.pointer);
      problems.push({ ...place, message: breakingMessage(release, change.sentence, ''), rule: `${breakingRule}; ${judged.check}` });
    }
    effectiveImpacts.push(judged.impact);
  }
  const impact = highestImpact([...effectiveImpacts, ...(problems.length > 0 ? (['major'] as const) : [])]);
  if (problems.length > 0) return { release, problems, impact, changes };

  const releaseVersion = versionOf(release);
  const currentVersion = parseVersion(document.info.version);
  const versionPlace = locate('#/info/version');
  if (currentVersion === undefined) {
    problems.push({ ...versionPlace, message: `info.version "${document.info.version}" must be major.minor.patch, like the releases in openapi/releases/.`, rule: versionRule });
  } else if (compareVersions(currentVersion, releaseVersion) < 0) {
    problems.push({ ...versionPlace, message: `info.version ${document.info.version} is lower than the latest release, ${release.version}; versions only go up.`, rule: versionRule });
  } else if (currentVersion.major !== releaseVersion.major) {
    problems.push({
      ...versionPlace,
      message: `info.version ${document.info.version} leaves major version ${releaseVersion.major}: inside v1 only additive changes land, so raise the minor version instead (${formatVersion(nextMinorVersion(releaseVersion))}).`,
      rule: versionRule,
    });
  } else if (impact === 'minor' && compareVersions(currentVersion, nextMinorVersion(releaseVersion)) < 0) {
    const needed = formatVersion(nextMinorVersion(releaseVersion));
    problems.push({
      ...versionPlace,
      message: `Since release ${release.version}: ${additiveSummary(changes, redoclyAdditions)}. That is an additive change: raise info.version to ${needed} or higher (it is ${document.info.version}).`,
      rule: versionRule,
    });
  }
  return { release, problems, ...(impact === undefined ? {} : { impact }), changes };
}

export const compatibilityStep: GateStep = {
  name: 'compatibility with the latest release',
  run: (context) => checkCompatibility(context).problems,
};
