/**
 * Where each node of a document is used, in a client developer's terms: which request or
 * response holds it and under which field. Redocly's diff reports a change to a shared
 * component once, where it first met it; the changelog names every field the change reaches,
 * so it looks the changed node up here. This walks one document; it compares nothing.
 */
import { isRecord, isReference, resolvePointer, type OpenApiDocument } from '../contract/document.ts';
import { childPointer, encodePointerSegment } from '../contract/json-pointer.ts';
import { mediaTypesOf, operationsOf, type Direction } from './operations.ts';

/** A request variant or a response: what a changelog sentence says a field belongs to. */
export interface Owner {
  /** `POST /action` */
  operation: string;
  direction: Direction;
  /** "for `pause_subscription`", "in the `POST /action` request", "in the `200` response". */
  phrase: string;
  /** The request variant's action, when the request body picks one. */
  action?: string;
  /** The response's status. */
  status?: string;
}

/**
 * What a node is to its owner: the whole body, a field, the items of a list field, the values of
 * a map field (`additionalProperties`), a branch of a `oneOf`, one of the media type's examples,
 * one of the response's headers, or the operation itself.
 */
export type UseRole = 'body' | 'field' | 'items' | 'values' | 'branch' | 'example' | 'header' | 'operation';

export interface NodeUse {
  owner: Owner;
  role: UseRole;
  /**
   * The field's dotted path from the body (`data.allowed_actions`); empty for the body itself. A
   * field inside a list's items reads `history[].by`, inside a map's values `data.details.*.code`.
   */
  field: string;
  /** The example's or the header's name. */
  name?: string;
  /** The place of the owner, then of the node, in a walk of the document: the changelog's order. */
  ownerOrder: number;
  order: number;
  /** Every pointer the node is known by here: where it is written, then each reference's target. */
  pointers: readonly string[];
}

export type UseIndex = ReadonlyMap<string, readonly NodeUse[]>;

/** The uses of two versions' nodes: the base's and the revision's. */
export interface DocumentUses {
  base: UseIndex;
  revision: UseIndex;
}

/** How deep into nested fields the walk goes; the contract's deepest field is three levels down. */
const deepestField = 8;

/** A node with every pointer it is known by: where it is written first, then each reference's target. */
export interface Located {
  node: unknown;
  pointers: string[];
}

/** Follows the references a located node makes, to what they lead to; its pointers grow with each target. */
export function followReferences(document: OpenApiDocument, located: Located): Located {
  let { node } = located;
  const pointers = [...located.pointers];
  while (isReference(node) && node.$ref.startsWith('#') && !pointers.includes(node.$ref) && pointers.length < 16) {
    pointers.push(node.$ref);
    node = resolvePointer(document, node.$ref);
  }
  return { node, pointers };
}

/** The node at a pointer, its references followed; an undefined node where the pointer leads nowhere. */
function follow(document: OpenApiDocument, pointer: string): Located {
  try {
    return followReferences(document, { node: resolvePointer(document, pointer), pointers: [pointer] });
  } catch {
    return { pointers: [pointer], node: undefined };
  }
}

/** Every use of every node the operations reach, keyed by each pointer the node is known by. */
export function indexUses(document: OpenApiDocument): UseIndex {
  const index = new Map<string, NodeUse[]>();
  let ownerOrder = 0;
  let order = 0;
  const record = (pointers: readonly string[], use: Omit<NodeUse, 'order' | 'ownerOrder' | 'pointers'>): void => {
    const placed: NodeUse = { ...use, ownerOrder, order: order++, pointers };
    for (const pointer of new Set(pointers)) {
      const uses = index.get(pointer) ?? [];
      uses.push(placed);
      index.set(pointer, uses);
    }
  };

  /** `prefix` is what the node's own fields are named under: the field, `field[]` in a list, `field.*` in a map. */
  const walkSchema = (pointers: string[], node: unknown, owner: Owner, role: UseRole, field: string, prefix: string, depth: number): void => {
    record(pointers, { owner, role, field });
    if (!isRecord(node) || depth > deepestField) return;
    const at = pointers.at(-1) ?? '';
    if (isRecord(node.properties)) {
      for (const name of Object.keys(node.properties)) {
        const child = follow(document, childPointer(at, 'properties', name));
        const named = prefix === '' ? name : `${prefix}.${name}`;
        walkSchema(child.pointers, child.node, owner, 'field', named, named, depth + 1);
      }
    }
    if (isRecord(node.items)) {
      const items = follow(document, childPointer(at, 'items'));
      walkSchema(items.pointers, items.node, owner, 'items', field, `${prefix}[]`, depth + 1);
    }
    if (isRecord(node.additionalProperties)) {
      const values = follow(document, childPointer(at, 'additionalProperties'));
      walkSchema(values.pointers, values.node, owner, 'values', field, prefix === '' ? '*' : `${prefix}.*`, depth + 1);
    }
    for (const combinator of ['oneOf', 'anyOf', 'allOf'] as const) {
      const branches = node[combinator];
      if (!Array.isArray(branches)) continue;
      branches.forEach((_, position) => {
        const branch = follow(document, childPointer(at, combinator, position));
        // An `allOf` part is the schema itself; a `oneOf` branch is one shape of it.
        walkSchema(branch.pointers, branch.node, owner, combinator === 'allOf' ? role : 'branch', field, prefix, depth + 1);
      });
    }
  };

  const walkMedia = (mediaPointer: string, owner: (variant?: string) => Owner): void => {
    const media = follow(document, mediaPointer);
    if (!isRecord(media.node)) return;
    const mediaAt = media.pointers.at(-1) ?? mediaPointer;
    const schema = follow(document, `${mediaAt}/schema`);
    const mapping = isRecord(schema.node) && isRecord(schema.node.discriminator) ? schema.node.discriminator.mapping : undefined;
    if (isRecord(mapping)) {
      // A body that picks its branch by a discriminator: each branch is an action's own request.
      const schemaAt = schema.pointers.at(-1) ?? '';
      for (const [identifier, target] of Object.entries(mapping)) {
        if (typeof target !== 'string') continue;
        const $ref = target.startsWith('#') ? target : `#/components/schemas/${target}`;
        const branch = follow(document, $ref);
        ownerOrder++;
        walkSchema([childPointer(schemaAt, 'discriminator', 'mapping', identifier), ...branch.pointers], branch.node, owner(identifier), 'body', '', '', 0);
      }
      ownerOrder++;
    } else {
      ownerOrder++;
      walkSchema(schema.pointers, schema.node, owner(), 'body', '', '', 0);
    }
    const examples = isRecord(media.node.examples) ? Object.keys(media.node.examples) : [];
    for (const name of examples) {
      record(follow(document, childPointer(mediaAt, 'examples', name)).pointers, { owner: owner(), role: 'example', field: '', name });
    }
  };

  for (const operation of operationsOf(document).values()) {
    record([operation.pointer], { owner: { operation: operation.label, direction: 'request', phrase: `\`${operation.label}\`` }, role: 'operation', field: '' });
    const requestBody = follow(document, `${operation.pointer}/requestBody`);
    const requestAt = requestBody.pointers.at(-1) ?? '';
    for (const mediaType of Object.keys(mediaTypesOf(document, operation.operation.requestBody))) {
      walkMedia(childPointer(requestAt, 'content', mediaType), (action) =>
        action === undefined
          ? { operation: operation.label, direction: 'request', phrase: `in the \`${operation.label}\` request` }
          : { operation: operation.label, direction: 'request', phrase: `for \`${action}\``, action },
      );
    }
    for (const status of Object.keys(operation.operation.responses ?? {})) {
      const owner: Owner = { operation: operation.label, direction: 'response', phrase: `in the \`${status}\` response`, status };
      const response = follow(document, `${operation.pointer}/responses/${encodePointerSegment(status)}`);
      const responseAt = response.pointers.at(-1) ?? '';
      ownerOrder++;
      for (const mediaType of Object.keys(mediaTypesOf(document, operation.operation.responses?.[status]))) {
        walkMedia(childPointer(responseAt, 'content', mediaType), () => owner);
      }
      const headers = isRecord(response.node) && isRecord(response.node.headers) ? Object.keys(response.node.headers) : [];
      for (const name of headers) {
        record(follow(document, childPointer(responseAt, 'headers', name)).pointers, { owner, role: 'header', field: '', name });
      }
    }
  }
  return index;
}
