/**
 * How the changelog follows one of Redocly's changes to the nodes it concerns, and collects the
 * sentences it tells about them in the order the page lists them (./contract-changes.ts).
 */
import { isRecord, resolvePointer, type OpenApiDocument } from '../contract/document.ts';
import { pointerSegments } from '../contract/json-pointer.ts';
import type { Comparison, ContractChange } from './comparison.ts';
import { followReferences, type Located, type NodeUse, type UseIndex } from './document-uses.ts';
import type { DiffChange } from './redocly-diff.ts';

/**
 * Follows a path as Redocly writes it: from the document's root, through references (a `$ref`
 * segment, or a reference met on the way) and a discriminator's mapping to the branch it names.
 */
export function locate(document: OpenApiDocument, walkPath: string): Located | undefined {
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

export function usesOf(index: UseIndex, pointer: string | undefined, roles: readonly NodeUse['role'][]): NodeUse[] {
  return pointer === undefined ? [] : (index.get(pointer) ?? []).filter((use) => roles.includes(use.role));
}

/**
 * The pointer of the node a change is about, as Redocly gives it: the added node in the
 * revision, the removed one in the base, and for a keyword the node that holds it (Redocly points
 * at the keyword when that side has it). A property written as a reference is its own node: the
 * schema it refers to is shared, and a field taken out of one request is not taken out of others.
 */
export function changedNode(change: DiffChange, side: 'base' | 'revision', located: Located | undefined): string | undefined {
  const pointer = side === 'base' ? change.basePointer : change.revisionPointer;
  if (pointer === undefined) return located?.pointers[0];
  const suffix = change.property === undefined ? undefined : `/${change.property}`;
  return suffix !== undefined && pointer.endsWith(suffix) ? pointer.slice(0, -suffix.length) : pointer;
}

/** What a sentence says a node is: "Field `data.status`" or "Each item of field `data.allowed_actions`". */
export function subjectOf(use: NodeUse): string {
  if (use.role === 'items') return `Each item of field \`${use.field}\``;
  if (use.role === 'values') return `Each value of field \`${use.field}\``;
  return `Field \`${use.field}\``;
}

/** A sentence in waiting, with where it sorts: its owner, then fields before the body, examples and headers. */
export interface Told {
  change: ContractChange;
  key: [owner: number, group: number, order: number];
}

export const groups = { field: 0, body: 1, example: 2, header: 3 } as const;

export class Teller {
  readonly told: Told[] = [];
  private readonly seen = new Set<string>();
  readonly comparison: Comparison;
  readonly baseUses: UseIndex;
  readonly revisionUses: UseIndex;

  constructor(comparison: Comparison) {
    this.comparison = comparison;
    this.baseUses = comparison.uses.base;
    this.revisionUses = comparison.uses.revision;
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


/** Whether the owner is an action that is new, or gone, as a whole: its own entry tells of it. */
export function isWholeAction(teller: Teller, use: NodeUse): boolean {
  const { action } = use.owner;
  return action !== undefined && (teller.comparison.newActions.has(action) || teller.comparison.removedActions.has(action));
}

