/**
 * The sentences of the changes that concern a field's values or an object's openness, and the
 * words for a change the changelog has no sentence of its own for.
 */
import { isRecord, type OpenApiDocument } from '../contract/document.ts';
import { pointerSegments } from '../contract/json-pointer.ts';
import { list, listedValues } from './comparison.ts';
import type { DocumentUses, NodeUse, UseIndex } from './document-uses.ts';
import type { DiffChange } from './redocly-diff.ts';
import { changedNode, groups, locate, subjectOf, usesOf, type Teller } from './change-teller.ts';

/** The values a field may take, before and after; see `gainedOnlyNewActions` for the one exception. */
export function tellValues(teller: Teller, use: NodeUse, before: unknown, after: unknown): void {
  if (!isRecord(before) || !isRecord(after)) return;
  const was = listedValues(before);
  const is = listedValues(after);
  if (was === undefined || is === undefined) return;
  const { comparison } = teller;
  const subject = subjectOf(use);
  const action = use.owner.action === undefined ? {} : { action: use.owner.action };
  const shown = (values: string[]): string => list(values.map((value) => String(JSON.parse(value))));
  const added = is.values.filter((value) => !was.values.includes(value));
  const removed = was.values.filter((value) => !is.values.includes(value));
  const parsed = (values: string[]): unknown[] => values.map((value) => JSON.parse(value));
  // The new action's own entry tells of its identifier joining a list of actions.
  const onlyNewActions = gainedOnlyNewActions(parsed(was.values), parsed(is.values), comparison.revisionActions, comparison.newActions);
  // Likewise the removed action's own entry tells of its identifier leaving a list of actions.
  const baseActions = new Set([...comparison.revisionActions, ...comparison.removedActions]);
  const onlyRemovedActions = gainedOnlyNewActions(parsed(is.values), parsed(was.values), baseActions, comparison.removedActions);
  if (added.length > 0 && !onlyNewActions) {
    teller.say({ kind: 'field-values-added', category: 'added', sentence: `${subject} ${use.owner.phrase} takes new values: ${shown(added)}.`, ...action }, use, groups.field);
  }
  if (removed.length > 0 && !onlyRemovedActions) {
    teller.say({ kind: 'field-values-removed', category: 'removed', sentence: `${subject} ${use.owner.phrase} no longer takes the values ${shown(removed)}.`, ...action }, use, groups.field);
  }
  // A request that accepts more breaks nobody, and says so by taking new values; a response's
  // list turned extensible is the tolerant-reader promise made explicit.
  if (!was.extensible && is.extensible && use.owner.direction === 'response') {
    teller.say(
      {
        kind: 'field-values-opened',
        category: 'changed',
        sentence: `${subject} ${use.owner.phrase} is now an extensible enum: a later release may send a value it does not list yet, which a client accepts.`,
        ...action,
      },
      use,
      groups.field,
    );
  }
}

/**
 * True when an enum-like list (values before and after) gained only identifiers of new actions
 * and holds nothing but action identifiers (read backwards, base and revision swapped: it lost
 * only the identifiers of removed actions). Such a list stays compatible even in a response:
 * the `200` response echoes the action the client sent, and new actions are what v1 promises to
 * add, so `allowed_actions` of a `409` may name them. A new subscription status is not this case.
 */
export function gainedOnlyNewActions(
  before: readonly unknown[],
  after: readonly unknown[],
  revisionActions: ReadonlySet<string>,
  newActions: ReadonlySet<string>,
): boolean {
  const added = after.filter((value) => !before.includes(value));
  const isIdentifier = (set: ReadonlySet<string>) => (value: unknown) => typeof value === 'string' && set.has(value);
  return added.length > 0 && after.every(isIdentifier(revisionActions)) && added.every(isIdentifier(newActions));
}

/** An object that may now carry members it does not list: a response opened, or a request loosened. */
export function tellOpenness(teller: Teller, use: NodeUse, before: unknown, after: unknown): void {
  if (!isRecord(before) || !isRecord(after) || before.additionalProperties !== false) return;
  if (after.additionalProperties !== undefined && after.additionalProperties !== true) return;
  const { owner } = use;
  const subject =
    use.role === 'field'
      ? `Field \`${use.field}\` ${owner.phrase}`
      : owner.direction === 'response'
        ? `The body of the \`${owner.status ?? ''}\` response`
        : owner.action === undefined
          ? `The \`${owner.operation}\` request`
          : `The request for \`${owner.action}\``;
  const sentence =
    owner.direction === 'request' ? `${subject} no longer refuses fields it does not list.` : `${subject} may now carry fields it does not list, which a client ignores.`;
  teller.say(
    { kind: 'object-opened', category: 'changed', sentence, ...(owner.action === undefined ? {} : { action: owner.action }) },
    use,
    use.role === 'field' ? groups.field : groups.body,
  );
}


/**
 * Where a node is, for a sentence about a change this module has no words of its own for: at
 * every use of the node a keyword changed on, found by the last pointer it is known by (the
 * schema a reference leads to), or the path Redocly walked when no use is known.
 */
function placesOf(index: UseIndex, change: DiffChange, pointer: string | undefined): { place: string; use?: NodeUse }[] {
  const uses = usesOf(index, pointer, ['field', 'items', 'values', 'body', 'header', 'example']);
  const places = uses.map((use) => ({ place: placeOfUse(use), use }));
  if (places.length > 0) return places;
  const [, pathName = '', method = '', ...rest] = pointerSegments(change.path).filter((segment) => segment !== '$ref');
  return [{ place: `\`${method.toUpperCase()} ${pathName}\` at \`${rest.join('/')}\`` }];
}

function placeOfUse(use: NodeUse): string {
  const { owner } = use;
  if (use.role === 'field' || use.role === 'items' || use.role === 'values') return `${subjectOf(use).replace(/^./, (first) => first.toLowerCase())} ${owner.phrase}`;
  if (use.role === 'header') return `header \`${use.name ?? ''}\` of the \`${owner.status ?? ''}\` response`;
  if (use.role === 'example') return `example \`${use.name ?? ''}\` ${owner.phrase}`;
  return owner.direction === 'response' ? `the body of the \`${owner.status ?? ''}\` response` : owner.action === undefined ? `the \`${owner.operation}\` request` : `the request for \`${owner.action}\``;
}

function shownValue(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  return text === undefined || text.length > 60 ? undefined : `\`${text}\``;
}

/** A change of a kind this module has no sentence for, worded from Redocly's report rather than left out. */
export function tellUnknown(teller: Teller, change: DiffChange): void {
  const { base, revision } = teller.comparison;
  const last = pointerSegments(change.path).at(-1) ?? '';
  const parentPath = change.path.replace(/\/[^/]+$/, '');
  const say = (category: 'added' | 'removed' | 'changed', sentence: (place: string) => string, pointer: string | undefined, side: 'base' | 'revision'): void => {
    for (const { place, use } of placesOf(side === 'base' ? teller.baseUses : teller.revisionUses, change, pointer)) {
      const action = use?.owner.action === undefined ? {} : { action: use.owner.action };
      teller.say({ kind: 'other-change', category, sentence: sentence(place), ...action }, use, groups.field, category === 'removed');
    }
  };
  if (change.kind === 'added') {
    say('added', (place) => `New \`${last}\` in ${place}.`, locate(revision, parentPath)?.pointers.at(-1), 'revision');
  } else if (change.kind === 'removed') {
    say('removed', (place) => `\`${last}\` was removed from ${place}.`, locate(base, parentPath)?.pointers.at(-1), 'base');
  } else {
    const keyword = change.property === undefined ? 'The definition' : `\`${change.property}\``;
    const before = change.baseValue === undefined ? undefined : shownValue(change.baseValue);
    const after = change.revisionValue === undefined ? undefined : shownValue(change.revisionValue);
    const was = change.baseValue === undefined ? ' (was not set)' : before === undefined ? '' : ` (was ${before})`;
    const values =
      change.revisionValue === undefined
        ? ` is no longer set${before === undefined ? '' : ` (was ${before})`}`
        : after === undefined
          ? ' changed'
          : ` is now ${after}${was}`;
    say('changed', (place) => `${keyword} of ${place}${values}.`, changedNode(change, 'revision', locate(revision, change.path)), 'revision');
  }
}

/**
 * Where a change Redocly reports sits, in a client developer's words ("field `subscription_id`
 * for `cancel_subscription`"), for a message that quotes Redocly's own finding: its first places,
 * and how many more; empty where no field, body, header or example holds it (a path, an operation).
 */
export function whereChanged(change: DiffChange, documents: { base: OpenApiDocument; revision: OpenApiDocument }, uses: DocumentUses): string {
  const removed = change.kind === 'removed';
  const document = removed ? documents.base : documents.revision;
  const pointer = changedNode(change, removed ? 'base' : 'revision', locate(document, change.path));
  const places = placesOf(removed ? uses.base : uses.revision, change, pointer).flatMap(({ place, use }) => (use === undefined ? [] : [place]));
  const shown = places.slice(0, 2).join(', ');
  return places.length > 2 ? `${shown} and ${places.length - 2} more` : shown;
}
