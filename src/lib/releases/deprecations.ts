import { isRecord, resolvePointer, type OpenApiDocument } from '../contract/document.ts';
import type { Deprecation } from './comparison.ts';
import { indexUses, type NodeUse, type UseIndex } from './document-uses.ts';

/** An operation, an action, a field or a response header of the contract, as far as deprecation is concerned. */
export interface Member {
  /** Identifies the same member across versions. */
  key: string;
  /** "Field `note` for `pause_subscription`", "Action `trial_end`", "Header `Retry-After` of the `429` response". */
  subject: string;
  deprecated: boolean;
  action?: string;
}

/** OpenAPI 3.1 allows `deprecated` beside a `$ref`, so the node as written counts as much as what it refers to. */
function isDeprecated(document: OpenApiDocument, use: NodeUse): boolean {
  return use.pointers.some((pointer) => {
    try {
      const node = resolvePointer(document, pointer);
      return isRecord(node) && node.deprecated === true;
    } catch {
      return false;
    }
  });
}

function memberOf(document: OpenApiDocument, use: NodeUse): Member | undefined {
  const { owner } = use;
  const action = owner.action === undefined ? {} : { action: owner.action };
  const where = owner.direction === 'request' ? `request:${owner.operation}:${owner.action ?? ''}` : `response:${owner.operation}:${owner.status ?? ''}`;
  const deprecated = isDeprecated(document, use);
  switch (use.role) {
    case 'operation':
      return { key: `operation:${owner.operation}`, subject: `Operation \`${owner.operation}\``, deprecated };
    case 'body':
      return owner.action === undefined ? undefined : { key: `action:${owner.action}`, subject: `Action \`${owner.action}\``, deprecated, ...action };
    case 'field':
      return { key: `${where}:${use.field}`, subject: `Field \`${use.field}\` ${owner.phrase}`, deprecated, ...action };
    case 'header':
      return { key: `header:${owner.operation}:${owner.status ?? ''}:${use.name ?? ''}`, subject: `Header \`${use.name ?? ''}\` of the \`${owner.status ?? ''}\` response`, deprecated };
    default:
      return undefined;
  }
}

/**
 * Every operation, action, field (nested ones, in lists and maps too) and response header, in the
 * order of the document, read from the one index of where each node is used (./document-uses.ts).
 */
export function membersOf(document: OpenApiDocument, index: UseIndex = indexUses(document)): Member[] {
  const uses = new Set<NodeUse>();
  for (const found of index.values()) for (const use of found) uses.add(use);
  const members = new Map<string, Member>();
  for (const use of [...uses].sort((a, b) => a.order - b.order)) {
    const member = memberOf(document, use);
    // A field reached through several media types is one member, deprecated if marked in any.
    if (member === undefined) continue;
    const known = members.get(member.key);
    if (known === undefined) members.set(member.key, member);
    else known.deprecated ||= member.deprecated;
  }
  return [...members.values()];
}

/** Every member marked `deprecated: true`, keyed so that the same one matches across versions. */
export function deprecationsOf(document: OpenApiDocument): Deprecation[] {
  return membersOf(document)
    .filter((member) => member.deprecated)
    .map((member) => ({
      key: member.key,
      sentence: `${member.subject} is deprecated.`,
      ...(member.action === undefined ? {} : { action: member.action }),
    }));
}
