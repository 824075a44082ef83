/**
 * The changelog's sentences for what Redocly's diff (./redocly-diff.ts) found between two
 * versions of the contract, plus what it cannot see (./beyond-redocly.ts). Redocly compares;
 * this module only tells each change in a client developer's terms, once for every request or
 * response the changed node reaches (./document-uses.ts).
 */
import { isRecord, type OpenApiDocument } from '../contract/document.ts';
import { childPointer, pointerSegments } from '../contract/json-pointer.ts';
import { changesBeyondRedocly, startComparison } from './beyond-redocly.ts';
import { actionsOf, add, typeLabel, type ChangeKind, type ContractChange } from './comparison.ts';
import { operationsOf } from './operations.ts';
import { changedNode, groups, isWholeAction, locate, subjectOf, Teller, usesOf } from './change-teller.ts';
import { tellOpenness, tellUnknown, tellValues } from './field-sentences.ts';
import type { DocumentUses } from './document-uses.ts';
import { diffDocuments, type DiffChange } from './redocly-diff.ts';
import { httpMethods } from '../http/methods.ts';

export {
  actionIdentifiers,
  actionsOf,
  type ChangeCategory,
  type ChangeImpact,
  type ChangeKind,
  type ContractChange,
  type Deprecation,
} from './comparison.ts';
export { judgedBeyondRedocly, impactsBeyondRedocly } from './beyond-redocly.ts';
export { deprecationsOf } from './deprecations.ts';

function requiredNames(node: unknown): Set<string> {
  return new Set(isRecord(node) && Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : []);
}

function hasProperty(node: unknown, name: string): boolean {
  return isRecord(node) && isRecord(node.properties) && name in node.properties;
}

/** The operations of one path item, for a path added, removed or renamed. */
function operationLabelsOf(document: OpenApiDocument, pathName: string): string[] {
  const prefix = `${childPointer('#/paths', pathName)}/`;
  return [...operationsOf(document).values()].filter((operation) => operation.pointer.startsWith(prefix)).map((operation) => operation.label);
}

/** The keywords whose change can change the values a schema lists (an extensible enum reads its description). */
const valueKeywords = new Set(['enum', 'const', 'examples', 'description', 'type']);

/**
 * The keywords a modified node is told by, or that change nothing a client reads: words,
 * examples, and deprecation, which ./beyond-redocly.ts tells for every version.
 */
const understood = new Set([...valueKeywords, 'required', 'additionalProperties', 'title', 'summary', 'deprecated', 'externalDocs']);

/**
 * The keywords that limit what a field takes. A change of one is told whatever Redocly rates it:
 * a looser limit in a request is something a client may now send, and the changelog says so.
 */
export const constraintKeywords = new Set([
  'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
]);

/**
 * Tells one of Redocly's changes; false when it is of a kind this module has no sentence for
 * (a changed limit, a keyword it does not know), which `tellUnknown` then words from the report.
 */
function tellChange(teller: Teller, change: DiffChange): boolean {
  const { comparison } = teller;
  const segments = pointerSegments(change.path).filter((segment) => segment !== '$ref');
  const last = segments.at(-1) ?? '';
  const parent = segments.at(-2);
  const added = change.kind === 'added';
  const removed = change.kind === 'removed';
  const base = locate(comparison.base, change.path);
  const revision = locate(comparison.revision, change.path);

  // A path or an operation, added, removed or renamed.
  if (segments.length === 2 || (segments.length === 3 && (httpMethods as readonly string[]).includes(last))) {
    const pathName = segments[1] ?? '';
    const labels = (document: OpenApiDocument, name: string): string[] =>
      segments.length === 3 ? [`${last.toUpperCase()} ${name}`] : operationLabelsOf(document, name);
    if (added || change.property === 'key') {
      const name = change.property === 'key' && typeof change.revisionValue === 'string' ? change.revisionValue : pathName;
      for (const label of labels(comparison.revision, name)) teller.say({ kind: 'operation-added', category: 'added', sentence: `New operation \`${label}\`.` }, undefined, 0);
    }
    if (removed || change.property === 'key') {
      const name = change.property === 'key' && typeof change.baseValue === 'string' ? change.baseValue : pathName;
      for (const label of labels(comparison.base, name)) teller.say({ kind: 'operation-removed', category: 'removed', sentence: `Operation \`${label}\` was removed.` }, undefined, 0, true);
    }
    return true;
  }

  // An action: a branch of the request body's discriminator mapping.
  if (parent === 'mapping' && segments.at(-3) === 'discriminator' && (added || removed)) {
    if (added) {
      const title = actionsOf(comparison.revision).find((action) => action.identifier === last)?.title;
      const [use] = usesOf(teller.revisionUses, changedNode(change, 'revision', revision), ['body']);
      teller.say({ kind: 'action-added', category: 'added', sentence: `New action \`${last}\`${title === undefined ? '' : `: ${title}`}.`, action: last }, use, 0);
    } else {
      const [use] = usesOf(teller.baseUses, changedNode(change, 'base', base), ['body']);
      teller.say(
        { kind: 'action-removed', category: 'removed', sentence: `Action \`${last}\` was removed.`, action: last, ...(change.basePointer === undefined ? {} : { pointer: change.basePointer }) },
        use,
        0,
        true,
      );
    }
    return true;
  }

  // An example of a request body or a response.
  if (parent === 'examples' && segments.at(-4) === 'content' && (added || removed)) {
    const actions = added ? comparison.newActions : comparison.removedActions;
    if (actions.has(last)) return true;
    const uses = usesOf(added ? teller.revisionUses : teller.baseUses, added ? changedNode(change, 'revision', revision) : changedNode(change, 'base', base), ['example']);
    // A request example sends one action: its sentence names it, so the page links the action.
    const value: unknown = followValue((added ? revision : base)?.node);
    const known = added ? comparison.revisionActions : new Set([...comparison.revisionActions, ...comparison.removedActions]);
    const sent = isRecord(value) && typeof value.action === 'string' && known.has(value.action) ? value.action : undefined;
    for (const use of uses) {
      const phrase =
        use.owner.direction === 'response' ? `of the \`${use.owner.status ?? ''}\` response` : sent === undefined ? 'of the request body' : `of the request body for \`${sent}\``;
      const action = use.owner.direction === 'request' && sent !== undefined ? { action: sent } : {};
      teller.say(
        added
          ? { kind: 'example-added', category: 'added', sentence: `New example \`${last}\` ${phrase}.`, ...action }
          : { kind: 'example-removed', category: 'removed', sentence: `Example \`${last}\` ${phrase} was removed.`, ...action },
        use,
        groups.example,
        removed,
      );
    }
    return uses.length > 0;
  }

  // A media type a request body or a response comes in.
  if (parent === 'content' && (added || removed)) {
    const status = segments.includes('responses') ? segments[segments.indexOf('responses') + 1] : undefined;
    const sentence =
      status === undefined
        ? added
          ? `The request body may now be sent as \`${last}\`.`
          : `The request body can no longer be sent as \`${last}\`.`
        : added
          ? `The \`${status}\` response may now come as \`${last}\`.`
          : `The \`${status}\` response no longer comes as \`${last}\`.`;
    teller.say({ kind: added ? 'media-type-added' : 'media-type-removed', category: added ? 'added' : 'removed', sentence }, undefined, groups.body, removed);
    return true;
  }

  // A response.
  if (parent === 'responses' && (added || removed)) {
    const method = segments[2] ?? '';
    const label = `${method.toUpperCase()} ${segments[1] ?? ''}`;
    teller.say(
      added
        ? { kind: 'response-added', category: 'added', sentence: `New response \`${last}\` for \`${label}\`.` }
        : { kind: 'response-removed', category: 'removed', sentence: `Response \`${last}\` of \`${label}\` was removed.` },
      undefined,
      0,
      removed,
    );
    return true;
  }

  // A response header, new or gone; or a response's whole set of headers, each told by name.
  if ((parent === 'headers' || last === 'headers') && segments.includes('responses') && (added || removed)) {
    const status = segments[segments.indexOf('responses') + 1] ?? '';
    const located = added ? revision : base;
    const index = added ? teller.revisionUses : teller.baseUses;
    const headers: [name: string, pointer: string | undefined, node: unknown][] =
      last === 'headers'
        ? Object.entries(isRecord(located?.node) ? located.node : {}).map(([name, node]) => [name, childPointer(located?.pointers.at(-1) ?? '', name), node])
        : [[last, changedNode(change, added ? 'revision' : 'base', located), located?.node]];
    for (const [name, pointer, node] of headers) {
      const required = isRecord(followValue(node)) && (followValue(node) as Record<string, unknown>).required === true;
      teller.say(
        added
          ? { kind: 'header-added', category: 'added', sentence: `New ${required ? 'header' : 'optional header'} \`${name}\` in the \`${status}\` response.` }
          : { kind: 'header-removed', category: 'removed', sentence: `Header \`${name}\` of the \`${status}\` response was removed.` },
        usesOf(index, pointer, ['header'])[0],
        groups.header,
        removed,
      );
    }
    return true;
  }

  // Whether a response header is marked required. Redocly rates the change either way `patch`,
  // and so does this: a header set by the hosting environment, such as `Retry-After`, is one the
  // document can describe but not promise, and saying so corrects the description only.
  if (parent === 'headers' && change.property === 'required') {
    for (const use of usesOf(teller.revisionUses, changedNode(change, 'revision', revision), ['header'])) {
      const now = isRecord(revision?.node) && revision.node.required === true;
      teller.say(
        {
          kind: 'header-required-changed',
          category: 'changed',
          sentence: `Header \`${last}\` of the \`${use.owner.status ?? ''}\` response is ${now ? 'now marked required' : 'no longer marked required'}.`,
        },
        use,
        groups.header,
      );
    }
    return true;
  }

  // A field, or an object's whole set of fields (a field that was a string and is now an object).
  if ((parent === 'properties' || last === 'properties') && (added || removed)) {
    const located = added ? revision : base;
    const holderPath = last === 'properties' ? change.path.replace(/\/properties$/, '') : change.path.replace(/\/properties\/[^/]+$/, '');
    const holder = locate(added ? comparison.revision : comparison.base, holderPath);
    const fields: [name: string, pointer: string | undefined][] =
      last === 'properties'
        ? Object.keys(isRecord(located?.node) ? located.node : {}).map((name) => [name, childPointer(located?.pointers.at(-1) ?? '', name)])
        : [[last, changedNode(change, added ? 'revision' : 'base', located)]];
    let told = 0;
    for (const [name, pointer] of fields) {
      const required = requiredNames(holder?.node).has(name);
      for (const use of usesOf(added ? teller.revisionUses : teller.baseUses, pointer, ['field'])) {
        told++;
        if (isWholeAction(teller, use)) continue;
        const action = use.owner.action === undefined ? {} : { action: use.owner.action };
        teller.say(
          added
            ? { kind: 'field-added', category: 'added', sentence: `New ${required ? 'required' : 'optional'} field \`${use.field}\` ${use.owner.phrase}.`, ...action }
            : { kind: 'field-removed', category: 'removed', sentence: `Field \`${use.field}\` ${use.owner.phrase} was removed.`, ...action },
          use,
          groups.field,
          removed,
        );
      }
    }
    return told > 0;
  }

  // A branch of a `oneOf` of constants: the values its parent lists.
  if ((parent === 'oneOf' || parent === 'anyOf') && (added || removed)) {
    const parentPath = change.path.replace(/\/[^/]+\/[^/]+$/, '');
    const before = locate(comparison.base, parentPath);
    const after = locate(comparison.revision, parentPath);
    const node = after?.pointers.at(-1);
    if (after === undefined || node === undefined || !teller.once(`values\u0000${node}`)) return true;
    for (const use of usesOf(teller.revisionUses, node, ['field', 'items', 'values'])) tellValues(teller, use, before?.node, after.node);
    return true;
  }

  if (change.kind !== 'modified' || change.property === undefined || revision === undefined) return false;
  const property = change.property;
  const node = changedNode(change, 'revision', revision);
  const uses = usesOf(teller.revisionUses, node, ['body', 'field', 'items', 'values']).filter((use) => !isWholeAction(teller, use));

  if (property === 'required') {
    const was = requiredNames(base?.node);
    const is = requiredNames(revision.node);
    const changed = [...new Set([...was, ...is])].filter((name) => was.has(name) !== is.has(name) && hasProperty(base?.node, name) && hasProperty(revision.node, name));
    for (const use of uses.filter((candidate) => candidate.role !== 'items')) {
      for (const name of changed) {
        const field = use.field === '' ? name : `${use.field}.${name}`;
        const action = use.owner.action === undefined ? {} : { action: use.owner.action };
        teller.say(
          { kind: 'field-required-changed', category: 'changed', sentence: `Field \`${field}\` ${use.owner.phrase} is now ${is.has(name) ? 'required' : 'optional'}.`, ...action },
          use,
          groups.field,
        );
      }
    }
    return true;
  }
  if (property === 'additionalProperties') {
    for (const use of uses.filter((candidate) => candidate.role !== 'items')) tellOpenness(teller, use, base?.node, revision.node);
    return true;
  }
  if (property === 'type' && isRecord(base?.node) && isRecord(revision.node)) {
    const before = typeLabel(base.node);
    const after = typeLabel(revision.node);
    if (before !== after) {
      for (const use of uses.filter((candidate) => candidate.role !== 'body')) {
        const action = use.owner.action === undefined ? {} : { action: use.owner.action };
        teller.say(
          { kind: 'field-type-changed', category: 'changed', sentence: `${subjectOf(use)} ${use.owner.phrase} changed its type from ${before ?? 'any'} to ${after ?? 'any'}.`, ...action },
          use,
          groups.field,
        );
      }
    }
  }
  if (valueKeywords.has(property) && teller.once(`values\u0000${node ?? ''}`)) {
    for (const use of uses.filter((candidate) => candidate.role !== 'body')) tellValues(teller, use, base?.node, revision.node);
  }
  return understood.has(property);
}

/** The value of an example or a header as written, with references followed; examples keep theirs under `value`. */
function followValue(node: unknown): unknown {
  return isRecord(node) && 'value' in node ? node.value : node;
}

/** The order the changelog lists one owner's changes in; the kinds of one node follow this list. */
const kindOrder: readonly ChangeKind[] = [
  'operation-added',
  'operation-removed',
  'action-added',
  'action-removed',
  'response-added',
  'response-removed',
  'field-added',
  'field-type-changed',
  'field-required-changed',
  'field-values-added',
  'field-values-removed',
  'field-values-opened',
  'object-opened',
  'field-removed',
  'example-added',
  'example-removed',
  'media-type-added',
  'media-type-removed',
  'header-added',
  'header-required-changed',
  'header-removed',
  'other-change',
];

/**
 * What Redocly's diff found between two versions, told in a client developer's terms: actions,
 * fields of requests and responses, examples, headers; then what it cannot see (the lifecycle
 * table, deprecations). The gate passes the diff it has run; see `compareContracts` otherwise.
 */
export function describeChanges(base: OpenApiDocument, revision: OpenApiDocument, diff: readonly DiffChange[], uses?: DocumentUses): ContractChange[] {
  const comparison = startComparison(base, revision, uses);
  const teller = new Teller(comparison);
  // Only what Redocly met walking from the paths reaches a client; a component is told where it is used.
  for (const change of diff) {
    if (!change.path.startsWith('#/paths/')) continue;
    // What Redocly rates a patch and this module has no words for (a description, a summary) stays out.
    const limit = change.kind === 'modified' && change.property !== undefined && constraintKeywords.has(change.property);
    if (!tellChange(teller, change) && (change.impact !== 'patch' || limit)) tellUnknown(teller, change);
  }
  const sorted = teller.told
    .map((told, arrival) => ({ ...told, arrival }))
    .sort((a, b) => {
      for (let position = 0; position < 3; position++) {
        const difference = (a.key[position] ?? 0) - (b.key[position] ?? 0);
        if (difference !== 0) return difference;
      }
      return kindOrder.indexOf(a.change.kind) - kindOrder.indexOf(b.change.kind) || a.arrival - b.arrival;
    });
  for (const { change } of sorted) add(comparison, change);
  changesBeyondRedocly(comparison);
  return comparison.changes;
}

/** Compares two versions with Redocly's diff and tells what changed; `projectDirectory` holds `redocly.yaml`. */
export function compareContracts(projectDirectory: string, base: OpenApiDocument, revision: OpenApiDocument): ContractChange[] {
  return describeChanges(base, revision, diffDocuments(projectDirectory, base, revision, `version ${base.info.version}`));
}
