/**
 * TypeScript types written from the contract's schemas. A request is typed strictly (the values the
 * contract lists, and nothing else); an answer tolerantly: a list of values a later release may
 * extend is the known union `| (string & {})`, and an object keeps members it does not name.
 */
import type { OpenApiDocument, SchemaObject } from '../../lib/contract/document.ts';
import { extensibleValues } from '../../lib/contract/extensible-enum.ts';
import { alternatives, childPointer, resolveSchema, type ResolvedSchema } from '../../lib/contract/schemas.ts';

export type Reading = 'request' | 'answer';

/** A string that is a name in TypeScript as written, or else quoted. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** Text safe inside a `/** … *\/` comment, each line prefixed for the indentation given. */
export function docComment(text: string, indent = ''): string {
  const lines = text.trim().replaceAll('*/', '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((line) => (line.trim() === '' ? `${indent} *` : `${indent} * ${line}`)), `${indent} */`].join('\n');
}

function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function scalarType(type: string): string | undefined {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    default:
      return undefined;
  }
}

/** A list of literal strings; in an answer, open to a value a later release adds. */
function literalUnion(values: readonly unknown[], reading: Reading): string {
  const known = values.map(literal);
  const open = reading === 'answer' && values.every((value) => typeof value === 'string');
  return union(open ? [...known, '(string & {})'] : known);
}

/**
 * The members of an object schema, one per line with its comment; `overrides` puts another type
 * for a member (the action a result echoes, typed as the name sent).
 */
export function objectMembers(document: OpenApiDocument, resolved: ResolvedSchema, reading: Reading, indent: string, overrides: Readonly<Record<string, string>> = {}): string[] {
  const properties = resolved.schema.properties ?? {};
  const required = resolved.schema.required ?? [];
  const members = Object.entries(properties).map(([name, value]) => {
    const member = resolveSchema(document, value, childPointer(resolved.pointer, 'properties', name));
    const comment = typeof member.schema.description === 'string' ? `${docComment(member.schema.description, indent)}\n` : '';
    return `${comment}${indent}${reading === 'answer' ? 'readonly ' : ''}${propertyKey(name)}${required.includes(name) ? '' : '?'}: ${overrides[name] ?? typeOf(document, member, reading, indent)};`;
  });
  if (reading === 'answer') members.push(`${indent}/** A member a later release adds. */\n${indent}readonly [member: string]: unknown;`);
  return members;
}

function objectType(document: OpenApiDocument, resolved: ResolvedSchema, reading: Reading, indent: string): string {
  const members = objectMembers(document, resolved, reading, `${indent}  `);
  return members.length === 0 ? 'Record<string, unknown>' : `{\n${members.join('\n')}\n${indent}}`;
}

/** The TypeScript type of a schema of the document. */
export function typeOf(document: OpenApiDocument, resolved: ResolvedSchema, reading: Reading, indent = ''): string {
  const schema: SchemaObject = resolved.schema;
  const extensible = extensibleValues(schema);
  if (extensible !== undefined) return literalUnion(extensible, 'answer');
  if (schema.const !== undefined) return literal(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return literalUnion(schema.enum, reading);
  const variants = alternatives(document, resolved);
  if (variants.length > 0) return union(variants.map((variant) => wrapped(typeOf(document, variant, reading, indent))));
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return union(
    types.map((type): string => {
      if (type === 'array') {
        const items = 'items' in schema && schema.items !== undefined ? typeOf(document, resolveSchema(document, schema.items, childPointer(resolved.pointer, 'items')), reading, indent) : 'unknown';
        return `${reading === 'answer' ? 'readonly ' : ''}${wrapped(items)}[]`;
      }
      if (type === 'object') return schema.properties === undefined ? (reading === 'answer' ? 'Readonly<Record<string, unknown>>' : 'Record<string, unknown>') : objectType(document, resolved, reading, indent);
      return typeof type === 'string' ? (scalarType(type) ?? 'unknown') : 'unknown';
    }),
  );
}

function wrapped(type: string): string {
  return type.includes(' | ') && !type.startsWith('{') ? `(${type})` : type;
}
