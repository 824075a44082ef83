import { actionsOf, compareContracts, deprecationsOf, type ChangeCategory, type ContractChange, type Deprecation } from './contract-changes.ts';
import type { OpenApiDocument } from '../contract/document.ts';
import { oncePerBundle } from '../contract/document.ts';
import { compareVersions, loadSnapshot, parseVersion, readReleases, versionOf, type Release } from './releases.ts';

export interface ChangelogEntry {
  category: ChangeCategory;
  /** One sentence with identifiers in backticks. */
  sentence: string;
  /** The actions the entry is about, for links to their pages. */
  actions?: string[];
}

export interface ChangelogVersion {
  version: string;
  /** Day of the release (`YYYY-MM-DD`); missing while the version is not released. */
  date?: string;
  released: boolean;
  /** What whoever cut the release wrote about it. */
  notes?: string;
  /** The first release lists what it brought rather than what changed. */
  first: boolean;
  /** In the order the page shows them: added, deprecated, changed, removed. */
  entries: ChangelogEntry[];
}

export interface CurrentDeprecation extends Deprecation {
  /** The version that first marked it deprecated. */
  since: string;
}

export interface Changelog {
  /** Newest first. */
  versions: ChangelogVersion[];
  /** What the newest version marks deprecated, with the version that announced it. */
  deprecated: CurrentDeprecation[];
}

export const changeCategories: readonly ChangeCategory[] = ['added', 'deprecated', 'changed', 'removed'];

const actionList = new Intl.ListFormat('en', { type: 'conjunction' });

/**
 * The changes in the page's order, one entry for the same change in several actions: a shared
 * field's new limit reads "… for `cancel_subscription`, `pause_subscription`, and `trial_end`"
 * once rather than once per action.
 */
export function mergedByAction(changes: readonly ContractChange[]): ChangelogEntry[] {
  const entries: (ChangelogEntry & { actions: string[]; template?: string })[] = [];
  const byTemplate = new Map<string, ChangelogEntry & { actions: string[]; template?: string }>();
  for (const change of changes) {
    const phrase = change.action === undefined ? undefined : `for \`${change.action}\``;
    if (phrase === undefined || change.action === undefined || !change.sentence.includes(phrase)) {
      entries.push({ category: change.category, sentence: change.sentence, actions: change.action === undefined ? [] : [change.action] });
      continue;
    }
    const template = change.sentence.replace(phrase, '\u0000');
    const key = `${change.category}\u0001${template}`;
    const known = byTemplate.get(key);
    if (known !== undefined) {
      known.actions.push(change.action);
      continue;
    }
    const entry = { category: change.category, sentence: change.sentence, actions: [change.action], template };
    byTemplate.set(key, entry);
    entries.push(entry);
  }
  return entries.map(({ category, sentence, actions, template }) => ({
    category,
    sentence: template === undefined || actions.length === 1 ? sentence : template.replace('\u0000', `for ${actionList.format(actions.map((action) => `\`${action}\``))}`),
    ...(actions.length === 0 ? {} : { actions }),
  }));
}

function entriesOf(changes: ContractChange[]): ChangelogEntry[] {
  return changeCategories.flatMap((category) => mergedByAction(changes.filter((change) => change.category === category)));
}

/** What the first release brought: its actions, each with its title. */
function firstReleaseEntries(document: OpenApiDocument): ChangelogEntry[] {
  const actions = actionsOf(document).map((action): ChangelogEntry => ({
    category: 'added',
    sentence: `Action \`${action.identifier}\`${action.title === undefined ? '' : `: ${action.title}`}.`,
    actions: [action.identifier],
  }));
  const deprecated = deprecationsOf(document).map((item): ChangelogEntry => ({
    category: 'deprecated',
    sentence: item.sentence,
    ...(item.action === undefined ? {} : { actions: [item.action] }),
  }));
  return [...actions, ...deprecated];
}

interface VersionedDocument {
  version: string;
  date?: string;
  notes?: string;
  released: boolean;
  document: OpenApiDocument;
}

export interface ChangelogOptions {
  /** The project whose `openapi/releases/` is read. */
  projectDirectory?: string;
  /**
   * The contract as it is now (the bundled document). When its `info.version` is ahead of the
   * latest release, it is shown as that version, not released yet.
   */
  current?: OpenApiDocument;
}

/**
 * The changelog of the v1 contract, built from the released snapshots in `openapi/releases/`:
 * each version against the one before it, so every entry comes from the documents themselves.
 */
export function buildChangelog(options: ChangelogOptions = {}): Changelog {
  const projectDirectory = options.projectDirectory ?? process.cwd();
  const releases: Release[] = readReleases(projectDirectory);
  const timeline: VersionedDocument[] = releases.map((release) => ({
    version: release.version,
    date: release.date,
    ...(release.notes === undefined ? {} : { notes: release.notes }),
    released: true,
    document: loadSnapshot(projectDirectory, release),
  }));

  const current = options.current;
  const latest = releases.at(-1);
  const currentVersion = current === undefined ? undefined : parseVersion(current.info.version);
  if (current !== undefined && currentVersion !== undefined && (latest === undefined || compareVersions(currentVersion, versionOf(latest)) > 0)) {
    timeline.push({ version: current.info.version, released: false, document: current });
  }

  const versions: ChangelogVersion[] = timeline.map((entry, index) => {
    const previous = timeline[index - 1];
    return {
      version: entry.version,
      ...(entry.date === undefined ? {} : { date: entry.date }),
      released: entry.released,
      ...(entry.notes === undefined ? {} : { notes: entry.notes }),
      first: previous === undefined,
      entries: previous === undefined ? firstReleaseEntries(entry.document) : entriesOf(compareContracts(projectDirectory, previous.document, entry.document)),
    };
  });

  const since = new Map<string, string>();
  for (const entry of timeline) {
    for (const item of deprecationsOf(entry.document)) if (!since.has(item.key)) since.set(item.key, entry.version);
  }
  const newest = timeline.at(-1)?.document;
  const deprecated = newest === undefined ? [] : deprecationsOf(newest).map((item) => ({ ...item, since: since.get(item.key) ?? '' }));

  return { versions: versions.reverse(), deprecated };
}

/**
 * The changelog of the site being built: the releases against the bundled document. The page
 * and its table of contents both need it, so it is worked out once per bundle.
 */
export const loadChangelog = oncePerBundle((current) => buildChangelog({ current }));

export interface SentencePart {
  text: string;
  /** An identifier, shown as code. */
  code: boolean;
}

/** Splits a sentence at its backticks, so identifiers can be shown as code. */
export function sentenceParts(sentence: string): SentencePart[] {
  return sentence
    .split('`')
    .map((text, index) => ({ text, code: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}

/** The heading of a version's section: its number, marked when it is not released yet. */
/** The word every page uses for a version of the contract that is not released: a draft. */
export const draftLabel = 'draft, not released';

export function versionTitle(version: Pick<ChangelogVersion, 'version' | 'released'>): string {
  return version.released ? version.version : `${version.version} (${draftLabel})`;
}

/**
 * Which version the site describes and which one is released, as every page that names a
 * version says it: read from the releases folder and the document's `info.version`, through the
 * changelog, and nowhere else.
 */
export interface VersionStatus {
  /** The version the site and its downloads describe: the document's `info.version`. */
  described: ChangelogVersion;
  /** The newest released version; the described one when it is released. */
  latestRelease: ChangelogVersion | undefined;
}

export function versionStatus(changelog: Changelog): VersionStatus {
  const [described] = changelog.versions;
  if (described === undefined) throw new Error('The changelog lists no version of the contract');
  return { described, latestRelease: changelog.versions.find((version) => version.released) };
}

export const deprecatedNowAnchor = 'deprecated-now';

/**
 * The changelog page's sections, for its table of contents: the headings are drawn by a
 * component, which Starlight cannot see when it collects a page's Markdown headings.
 */
export function changelogSections(changelog: Changelog): { slug: string; text: string }[] {
  return [
    { slug: deprecatedNowAnchor, text: 'Deprecated now' },
    ...changelog.versions.map((version) => ({ slug: versionAnchor(version.version), text: versionTitle(version) })),
  ];
}

/** The anchor of a version's section on the changelog page: `1.1.0` becomes `version-1-1-0`. */
export function versionAnchor(version: string): string {
  return `version-${version.replaceAll('.', '-')}`;
}

const dayFormat = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

/** `2026-11-20` as "November 20, 2026". */
export function formatReleaseDate(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}
