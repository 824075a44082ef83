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

/** A bound as a message or a page says it, with the values it names: `at least 1`, `one of "active", "paused"`, never `one of` alone. */
export function boundPhrase(constraint: Pick<Constraint, 'keyword' | 'label'> & { readonly values?: readonly LiteralValue[] }): string {
  if (constraint.keyword === 'pattern') return `matching ${String(constraint.values?.[0])}`;
  if (constraint.values === undefined || constraint.values.length === 0) return constraint.label;
  return `${constraint.label} ${constraint.values.map((value) => JSON.stringify(value)).join(', ')}`;
}

/** The constraints of a field whose keyword a library checks before sending; the others are the service's to judge. */
export function checkedConstraints(field: Pick<Field, 'constraints'>): Constraint[] {
  return field.constraints.filter((constraint) => checkedKeywords.has(constraint.keyword));
}

function boundsOf(field: Pick<Field, 'constraints'>) {
  return checkedConstraints(field).map(({ keyword, label, limit, values }) => ({ keyword, label, ...(limit === undefined ? {} : { limit }), ...(values === undefined ? {} : { values }) }));
}

function fieldOfItems(contract: ExecutableContract, items: ResolvedSchema): Pick<Field, 'constraints'> {
  // The same reading of the keywords as a field's, through the model's own reader.
  const field = contract.model.actions.flatMap((action) => action.fields).find((candidate) => candidate.pointer === items.pointer);
  if (field !== undefined) return field;
  return { constraints: [] };
}

/**
 * What a library checks of a field: its JSON types, whether it is required, its checked bounds
 * (each as the model phrases it), and an array's items' types and bounds.
 */
export function fieldRule(contract: ExecutableContract, field: Field) {
  const schema = fieldSchema(contract, field);
  const itemsSchema = schema.schema.type === 'array' && 'items' in schema.schema && schema.schema.items !== undefined ? resolveSchema(contract.document, schema.schema.items, childPointer(schema.pointer, 'items')) : undefined;
  const items = itemsSchema === undefined ? undefined : { types: jsonTypesOf(contract.document, itemsSchema), bounds: boundsOf(fieldOfItems(contract, itemsSchema)) };
  return { name: field.name, types: jsonTypesOf(contract.document, schema), required: field.required, bounds: boundsOf(field), ...(items === undefined ? {} : { items }) };
}

/** A field's rule as fieldRule reads it; each runtime declares the same shape in its own language. */
export type FieldRule = ReturnType<typeof fieldRule>;
/** One checked bound of a field. */
export type FieldBound = FieldRule['bounds'][number];

/** The fields a caller passes, in the contract's order: every field but the selector and the key, which the client sets. */
export function callerFields(contract: ExecutableContract, fields: readonly Field[]): Field[] {
  const { selector, credential } = contract.model.envelope;
  return fields.filter((field) => field.name !== selector && field.name !== credential);
}
