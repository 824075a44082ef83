/**
 * The changelog's sentences for what Redocly's diff (./redocly-diff.ts) found between two
 * versions of the contract, plus what it cannot see (./beyond-redocly.ts). Redocly compares;
 * this module only tells each change in a client developer's terms, once for every request or
 * response the changed node reaches (./document-uses.ts).
 */
import { isRecord, isReference, resolvePointer, type OpenApiDocument } from '../contract/document.ts';
import { childPointer, pointerSegments } from '../contract/json-pointer.ts';
import { changesBeyondRedocly, startComparison } from './beyond-redocly.ts';
import {
  actionsOf,
  add,
  list,
  listedValues,
  operationsOf,
  typeLabel,
  type ChangeKind,
  type Comparison,
  type ContractChange,
} from './comparison.ts';
import { indexUses, type NodeUse, type UseIndex } from './document-uses.ts';
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

/** A node of one version, found by the path Redocly walked to it, with every pointer it is known by. */
interface Located {
  node: unknown;
  pointers: string[];
}

function followReferences(document: OpenApiDocument, located: Located): Located {
  let { node } = located;
  const pointers = [...located.pointers];
  while (isReference(node) && node.$ref.startsWith('#') && !pointers.includes(node.$ref) && pointers.length < 16) {
    pointers.push(node.$ref);
    node = resolvePointer(document, node.$ref);
  }
  return { node, pointers };
}

/**
 * Follows a path as Redocly writes it: from the document's root, through references (a `$ref`
 * segment, or a reference met on the way) and a discriminator's mapping to the branch it names.
 */
function locate(document: OpenApiDocument, walkPath: string): Located | undefined {
  const segments = pointerSegments(walkPath);
  let at: Located = { node: document, pointers: ['#'] };
  try {
    for (const [position, segment] of segments.entries()) {
      if (segment === '$ref') {
        at = followReferences(document, at);
        continue;
      }
      at = followReferences(document, at);
      if (!isRecord(at.node) && !Array.isArray(at.node)) return undefined;
      const child: unknown = (at.node as Record<string, unknown>)[segment];
      if (child === undefined) return undefined;
      const pointer = `${at.pointers.at(-1) ?? '#'}/${walkPath.split('/')[position + 1]}`;
      if (typeof child === 'string' && segments[position - 1] === 'mapping') {
        const $ref = child.startsWith('#') ? child : `#/components/schemas/${child}`;
        at = { node: resolvePointer(document, $ref), pointers: [pointer, $ref] };
      } else {
        at = { node: child, pointers: [pointer] };
      }
    }
    return followReferences(document, at);
  } catch {
    return undefined;
  }
}

function usesOf(index: UseIndex, pointer: string | undefined, roles: readonly NodeUse['role'][]): NodeUse[] {
  return pointer === undefined ? [] : (index.get(pointer) ?? []).filter((use) => roles.includes(use.role));
}

/**
 * The pointer of the node a change is about, as Redocly gives it: the added node in the
 * revision, the removed one in the base, and for a keyword the node that holds it (Redocly points
 * at the keyword when that side has it). A property written as a reference is its own node: the
 * schema it refers to is shared, and a field taken out of one request is not taken out of others.
 */
function changedNode(change: DiffChange, side: 'base' | 'revision', located: Located | undefined): string | undefined {
  const pointer = side === 'base' ? change.basePointer : change.revisionPointer;
  if (pointer === undefined) return located?.pointers[0];
  const suffix = change.property === undefined ? undefined : `/${change.property}`;
  return suffix !== undefined && pointer.endsWith(suffix) ? pointer.slice(0, -suffix.length) : pointer;
}

/** What a sentence says a node is: "Field `data.status`" or "Each item of field `data.allowed_actions`". */
function subjectOf(use: NodeUse): string {
  return use.role === 'items' ? `Each item of field \`${use.field}\`` : `Field \`${use.field}\``;
}

/** A sentence in waiting, with where it sorts: its owner, then fields before the body, examples and headers. */
interface Told {
  change: ContractChange;
  key: [owner: number, group: number, order: number];
}

const groups = { field: 0, body: 1, example: 2, header: 3 } as const;

class Teller {
  readonly told: Told[] = [];
  private readonly seen = new Set<string>();
  readonly comparison: Comparison;
  readonly baseUses: UseIndex;
  readonly revisionUses: UseIndex;

  constructor(comparison: Comparison) {
    this.comparison = comparison;
    this.baseUses = indexUses(comparison.base);
    this.revisionUses = indexUses(comparison.revision);
  }

  /** Tells a change once, at the place of a use; a removed thing sorts after what is still there. */
  say(change: ContractChange, use: NodeUse | undefined, group: number, removed = false): void {
    if (!this.once(`${change.kind}\u0000${change.sentence}`)) return;
    const offset = removed ? 1_000_000 : 0;
    this.told.push({ change, key: [offset + (use?.ownerOrder ?? 0), group, use?.order ?? 0] });
  }

  /** True the first time a key is seen: several of Redocly's changes may concern one node. */
  once(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}

/** The values a field may take, before and after; see `gainedOnlyNewActions` for the one exception. */
function tellValues(teller: Teller, use: NodeUse, before: unknown, after: unknown): void {
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
  if (added.length > 0 && !onlyNewActions) {
    teller.say({ kind: 'field-values-added', category: 'added', sentence: `${subject} ${use.owner.phrase} takes new values: ${shown(added)}.`, ...action }, use, groups.field);
  }
  if (removed.length > 0) {
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
 * and holds nothing but action identifiers. Such a list stays compatible even in a response:
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
function tellOpenness(teller: Teller, use: NodeUse, before: unknown, after: unknown): void {
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

function requiredNames(node: unknown): Set<string> {
  return new Set(isRecord(node) && Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : []);
}

function hasProperty(node: unknown, name: string): boolean {
  return isRecord(node) && isRecord(node.properties) && name in node.properties;
}

/** Whether the owner is an action that is new, or gone, as a whole: its own entry tells of it. */
function isWholeAction(teller: Teller, use: NodeUse): boolean {
  const { action } = use.owner;
  return action !== undefined && (teller.comparison.newActions.has(action) || teller.comparison.removedActions.has(action));
}

/** The operations of one path item, for a path added, removed or renamed. */
function operationLabelsOf(document: OpenApiDocument, pathName: string): string[] {
  const prefix = `${childPointer('#/paths', pathName)}/`;
  return [...operationsOf(document).values()].filter((operation) => operation.pointer.startsWith(prefix)).map((operation) => operation.label);
}

/** The keywords whose change can change the values a schema lists (an extensible enum reads its description). */
const valueKeywords = new Set(['enum', 'const', 'examples', 'description', 'type']);

function tellChange(teller: Teller, change: DiffChange): void {
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
    return;
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
    return;
  }

  // An example of a request body or a response.
  if (parent === 'examples' && segments.at(-4) === 'content' && (added || removed)) {
    const actions = added ? comparison.newActions : comparison.removedActions;
    if (actions.has(last)) return;
    for (const use of usesOf(added ? teller.revisionUses : teller.baseUses, added ? changedNode(change, 'revision', revision) : changedNode(change, 'base', base), ['example'])) {
      const phrase = use.owner.direction === 'request' ? 'of the request body' : `of the \`${use.owner.status ?? ''}\` response`;
      teller.say(
        added
          ? { kind: 'example-added', category: 'added', sentence: `New example \`${last}\` ${phrase}.` }
          : { kind: 'example-removed', category: 'removed', sentence: `Example \`${last}\` ${phrase} was removed.` },
        use,
        groups.example,
        removed,
      );
    }
    return;
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
    return;
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
    return;
  }

  // A field.
  if (parent === 'properties' && (added || removed)) {
    if (added) {
      const required = requiredNames(locate(comparison.revision, change.path.replace(/\/properties\/[^/]+$/, ''))?.node).has(last);
      for (const use of usesOf(teller.revisionUses, changedNode(change, 'revision', revision), ['field'])) {
        if (isWholeAction(teller, use)) continue;
        const action = use.owner.action === undefined ? {} : { action: use.owner.action };
        teller.say({ kind: 'field-added', category: 'added', sentence: `New ${required ? 'required' : 'optional'} field \`${use.field}\` ${use.owner.phrase}.`, ...action }, use, groups.field);
      }
    } else {
      for (const use of usesOf(teller.baseUses, changedNode(change, 'base', base), ['field'])) {
        if (isWholeAction(teller, use)) continue;
        const action = use.owner.action === undefined ? {} : { action: use.owner.action };
        teller.say({ kind: 'field-removed', category: 'removed', sentence: `Field \`${use.field}\` ${use.owner.phrase} was removed.`, ...action }, use, groups.field, true);
      }
    }
    return;
  }

  // A branch of a `oneOf` of constants: the values its parent lists.
  if ((parent === 'oneOf' || parent === 'anyOf') && (added || removed)) {
    const parentPath = change.path.replace(/\/[^/]+\/[^/]+$/, '');
    const before = locate(comparison.base, parentPath);
    const after = locate(comparison.revision, parentPath);
    const node = after?.pointers.at(-1);
    if (after === undefined || node === undefined || !teller.once(`values\u0000${node}`)) return;
    for (const use of usesOf(teller.revisionUses, node, ['field', 'items'])) tellValues(teller, use, before?.node, after.node);
    return;
  }

  if (change.kind !== 'modified' || change.property === undefined || revision === undefined) return;
  const property = change.property;
  const node = changedNode(change, 'revision', revision);
  const uses = usesOf(teller.revisionUses, node, ['body', 'field', 'items']).filter((use) => !isWholeAction(teller, use));

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
    return;
  }
  if (property === 'additionalProperties') {
    for (const use of uses.filter((candidate) => candidate.role !== 'items')) tellOpenness(teller, use, base?.node, revision.node);
    return;
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
  'header-required-changed',
];

/**
 * What Redocly's diff found between two versions, told in a client developer's terms: actions,
 * fields of requests and responses, examples, headers; then what it cannot see (the lifecycle
 * table, deprecations). The gate passes the diff it has run; see `compareContracts` otherwise.
 */
export function describeChanges(base: OpenApiDocument, revision: OpenApiDocument, diff: readonly DiffChange[]): ContractChange[] {
  const comparison = startComparison(base, revision);
  const teller = new Teller(comparison);
  // Only what Redocly met walking from the paths reaches a client; a component is told where it is used.
  for (const change of diff) if (change.path.startsWith('#/paths/')) tellChange(teller, change);
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
