/**
 * How every library reads a field from the model for the check it makes before sending: the JSON
 * types the field takes, its bounds whose keyword is in the shared list (checked-keywords.ts), and
 * those of an array's items. The generators write these rules into their runtimes' descriptions,
 * each in its own language's spelling; the reading itself is this one.
 */
import type { Constraint, Field, LiteralValue } from '../../lib/contract/model.ts';
import { resolvePointer, type OpenApiDocument } from '../../lib/contract/document.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { alternatives, childPointer, resolveSchema, type ResolvedSchema } from '../../lib/contract/schemas.ts';
import { checkedKeywords } from './checked-keywords.ts';

/** One restriction a library checks on a value, as the model states it. */
export interface FieldBound {
  readonly keyword: string;
  /** The restriction as the model phrases it: `at least 1`, `at most 500 characters`. */
  readonly label: string;
  readonly limit?: number;
  readonly values?: readonly LiteralValue[];
}

/** What a library checks of one field before anything is sent. */
export interface FieldRule {
  readonly name: string;
  /** The JSON types the field takes: `string`, `integer`, `number`, `boolean`, `null`, `array`, `object`. */
  readonly types: readonly string[];
  readonly required: boolean;
  readonly bounds: readonly FieldBound[];
  /** The types and bounds of an array's items. */
  readonly items?: { readonly types: readonly string[]; readonly bounds: readonly FieldBound[] };
}

/** The field's schema, its references followed. */
export function fieldSchema(contract: ExecutableContract, field: Pick<Field, 'pointer'>): ResolvedSchema {
  return resolveSchema(contract.document, resolvePointer(contract.document, field.pointer), field.pointer);
}

/** The JSON types a schema takes, as the runtimes check them: `integer`, `string`, `null`, … */
export function jsonTypesOf(document: OpenApiDocument, resolved: ResolvedSchema): string[] {
  const { schema } = resolved;
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (typeof schema.type === 'string') return [schema.type];
  const variants = alternatives(document, resolved);
  if (variants.length > 0) return [...new Set(variants.flatMap((variant) => jsonTypesOf(document, variant)))];
  const values: unknown[] = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  return [...new Set(values.map((value) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value)))];
}

/** The constraints of a field whose keyword a library checks before sending; the others are the service's to judge. */
export function checkedConstraints(field: Pick<Field, 'constraints'>): Constraint[] {
  return field.constraints.filter((constraint) => checkedKeywords.has(constraint.keyword));
}

function boundsOf(field: Pick<Field, 'constraints'>): FieldBound[] {
  return checkedConstraints(field).map(({ keyword, label, limit, values }) => ({ keyword, label, ...(limit === undefined ? {} : { limit }), ...(values === undefined ? {} : { values }) }));
}

function fieldOfItems(contract: ExecutableContract, items: ResolvedSchema): Pick<Field, 'constraints'> {
  // The same reading of the keywords as a field's, through the model's own reader.
  const field = contract.model.actions.flatMap((action) => action.fields).find((candidate) => candidate.pointer === items.pointer);
  if (field !== undefined) return field;
  return { constraints: [] };
}

/** What a library checks of a field: its JSON types, whether it is required, its checked bounds, and its items'. */
export function fieldRule(contract: ExecutableContract, field: Field): FieldRule {
  const schema = fieldSchema(contract, field);
  const rule: FieldRule = { name: field.name, types: jsonTypesOf(contract.document, schema), required: field.required, bounds: boundsOf(field) };
  if (schema.schema.type === 'array' && 'items' in schema.schema && schema.schema.items !== undefined) {
    const items = resolveSchema(contract.document, schema.schema.items, childPointer(schema.pointer, 'items'));
    return { ...rule, items: { types: jsonTypesOf(contract.document, items), bounds: boundsOf(fieldOfItems(contract, items)) } };
  }
  return rule;
}

/** The fields a caller passes, in the contract's order: every field but the selector and the key, which the client sets. */
export function callerFields(contract: ExecutableContract, fields: readonly Field[]): Field[] {
  const { selector, credential } = contract.model.envelope;
  return fields.filter((field) => field.name !== selector && field.name !== credential);
}
