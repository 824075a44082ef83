import type { OpenApiDocument } from '../lib/contract/document.ts';
import { isRecord, resolvePointer } from '../lib/contract/document.ts';

/** A member of an answer that no schema reaching it names, and where it is (`data.details`). */
export interface UnnamedMember {
  /** The object it sits in, as a dotted path from the body: `data`, or '' for the body itself. */
  parent: string;
  name: string;
}

type Schema = Record<string, unknown>;

/** The schema and every schema it brings in with `$ref` or `allOf`, which all apply at once. */
function appliedSchemas(document: OpenApiDocument, schema: unknown, seen = new Set<unknown>()): Schema[] {
  if (!isRecord(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const parts: Schema[] = [schema];
  const { $ref: reference, allOf } = schema;
  if (typeof reference === 'string') parts.push(...appliedSchemas(document, resolvePointer(document, reference), seen));
  if (Array.isArray(allOf)) for (const part of allOf) parts.push(...appliedSchemas(document, part, seen));
  return parts;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** False when the schemas declare types and none of them is the value's. */
function typeFits(parts: readonly Schema[], value: unknown): boolean {
  const actual = jsonType(value);
  return parts.every((part) => {
    if (part.type === undefined) return true;
    const declared = Array.isArray(part.type) ? part.type : [part.type];
    return declared.includes(actual) || (actual === 'integer' && declared.includes('number'));
  });
}

function key(member: UnnamedMember): string {
  return `${member.parent}\u0000${member.name}`;
}

/**
 * The members of `value` that `schema` does not name, anywhere inside it: an object's member not in
 * `properties` (and not covered by `additionalProperties` or `patternProperties`), in objects at
 * any depth. Of `oneOf`/`anyOf` branches only those whose type fits the value count, and a member
 * is unnamed only when no such branch names it. An object schema without `properties` names
 * nothing in particular, so nothing in it is reported. What is unnamed is not checked any deeper.
 */
export function unnamedMembers(document: OpenApiDocument, schema: unknown, value: unknown, path = ''): UnnamedMember[] {
  const parts = appliedSchemas(document, schema);
  const choosing = parts.find((part) => Array.isArray(part.oneOf) || Array.isArray(part.anyOf));
  if (choosing !== undefined) {
    const { oneOf, anyOf, $ref: _ref, allOf: _all, ...rest } = choosing;
    // Each part on its own, without what it brings in: `parts` already holds that.
    const others = parts.filter((part) => part !== choosing).map(({ $ref: _ref, allOf: _all, ...own }) => own);
    const branches = [...(Array.isArray(oneOf) ? oneOf : []), ...(Array.isArray(anyOf) ? anyOf : [])];
    const fitting = branches.filter((branch) => typeFits([...others, rest, ...appliedSchemas(document, branch)], value));
    const candidates = (fitting.length > 0 ? fitting : branches).map((branch) => unnamedMembers(document, { allOf: [...others, rest, branch] }, value, path));
    const [first = [], ...more] = candidates;
    return first.filter((member) => more.every((found) => found.some((other) => key(other) === key(member))));
  }
  if (Array.isArray(value)) {
    const items = parts.map((part) => part.items).filter((item) => item !== undefined);
    if (items.length === 0) return [];
    return dedupe(value.flatMap((item) => unnamedMembers(document, { allOf: items }, item, path === '' ? '[]' : `${path}[]`)));
  }
  if (!isRecord(value)) return [];
  const named = new Map<string, unknown[]>();
  for (const part of parts) {
    if (!isRecord(part.properties)) continue;
    for (const [name, propertySchema] of Object.entries(part.properties)) named.set(name, [...(named.get(name) ?? []), propertySchema]);
  }
  const additional = parts.map((part) => part.additionalProperties).filter((extra) => extra !== undefined && extra !== false);
  const open = named.size === 0 || parts.some((part) => part.patternProperties !== undefined || part.additionalProperties === true);
  const found: UnnamedMember[] = [];
  for (const [name, member] of Object.entries(value)) {
    const memberPath = path === '' ? name : `${path}.${name}`;
    const schemas = named.get(name) ?? additional.filter(isRecord);
    if (schemas.length > 0) found.push(...unnamedMembers(document, { allOf: schemas }, member, memberPath));
    else if (!open) found.push({ parent: path, name });
  }
  return dedupe(found);
}

function dedupe(members: UnnamedMember[]): UnnamedMember[] {
  const byKey = new Map(members.map((member) => [key(member), member]));
  return [...byKey.values()];
}
