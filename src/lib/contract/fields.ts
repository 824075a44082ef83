import type { OpenApiDocument, SchemaObject } from './document.ts';
import { extensibleValues, withoutExtensibleMarker } from './extensible-enum.ts';
import type { ResolvedSchema } from './schemas.ts';
import { alternatives, childPointer, contractError, resolveSchema } from './schemas.ts';
import type { LiteralValue, Constraint, Field } from './model.ts';

function isLiteral(value: unknown): value is LiteralValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The type label of a schema, following `oneOf`/`anyOf`, `items` and `const`. */
export function typeLabel(document: OpenApiDocument, resolved: ResolvedSchema): string {
  const { schema, pointer } = resolved;
  const types: unknown = schema.type;
  if (Array.isArray(types)) return types.map(String).join(' or ');
  if (types === 'array') {
    const items = 'items' in schema ? schema.items : undefined;
    if (items === undefined) return 'array';
    return `array of ${typeLabel(document, resolveSchema(document, items, childPointer(pointer, 'items')))}`;
  }
  if (typeof types === 'string') return schema.format ? `${types} (${schema.format})` : types;
  const variants = alternatives(document, resolved);
  if (variants.length > 0) return [...new Set(variants.map((variant) => typeLabel(document, variant)))].join(' or ');
  if (schema.const !== undefined) return schema.const === null ? 'null' : typeof schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))].join(' or ');
  }
  throw contractError(pointer, 'has no `type`, so the pages cannot say what to send');
}

/** The keywords that restrict a value, as phrases a reader understands. */
export function constraintsOf(schema: SchemaObject, pointer: string): Constraint[] {
  const constraints: Constraint[] = [];
  const number = (keyword: keyof SchemaObject): number | undefined => {
    const value: unknown = schema[keyword];
    if (value === undefined || typeof value === 'boolean') return undefined;
    if (typeof value !== 'number') throw contractError(pointer, `\`${String(keyword)}\` is expected to be a number`);
    return value;
  };
  const literals = (keyword: 'enum' | 'const', value: unknown[]): LiteralValue[] => {
    if (!value.every(isLiteral)) throw contractError(pointer, `\`${keyword}\` values are expected to be plain JSON values`);
    return value;
  };

  if (schema.const !== undefined) {
    constraints.push({ keyword: 'const', label: 'always', values: literals('const', [schema.const]) });
  }
  if (Array.isArray(schema.enum)) {
    constraints.push({ keyword: 'enum', label: 'one of', values: literals('enum', schema.enum) });
  }
  const known = extensibleValues(schema);
  if (known !== undefined) {
    constraints.push({ keyword: 'extensibleEnum', label: 'one of these, or a value a later release adds:', values: known });
  }
  const minLength = number('minLength');
  if (minLength !== undefined) constraints.push({ keyword: 'minLength', label: `at least ${plural(minLength, 'character')}`, limit: minLength });
  const maxLength = number('maxLength');
  if (maxLength !== undefined) constraints.push({ keyword: 'maxLength', label: `at most ${plural(maxLength, 'character')}`, limit: maxLength });
  const minimum = number('minimum');
  if (minimum !== undefined) constraints.push({ keyword: 'minimum', label: `at least ${minimum}`, limit: minimum });
  const exclusiveMinimum = number('exclusiveMinimum');
  if (exclusiveMinimum !== undefined) {
    constraints.push({ keyword: 'exclusiveMinimum', label: `greater than ${exclusiveMinimum}`, limit: exclusiveMinimum });
  }
  const maximum = number('maximum');
  if (maximum !== undefined) constraints.push({ keyword: 'maximum', label: `at most ${maximum}`, limit: maximum });
  const exclusiveMaximum = number('exclusiveMaximum');
  if (exclusiveMaximum !== undefined) {
    constraints.push({ keyword: 'exclusiveMaximum', label: `less than ${exclusiveMaximum}`, limit: exclusiveMaximum });
  }
  const minItems = number('minItems');
  if (minItems !== undefined) constraints.push({ keyword: 'minItems', label: `at least ${plural(minItems, 'item')}`, limit: minItems });
  const maxItems = number('maxItems');
  if (maxItems !== undefined) constraints.push({ keyword: 'maxItems', label: `at most ${plural(maxItems, 'item')}`, limit: maxItems });
  if (schema.uniqueItems === true) constraints.push({ keyword: 'uniqueItems', label: 'no duplicates' });
  if (typeof schema.pattern === 'string') {
    constraints.push({ keyword: 'pattern', label: 'matches', values: [schema.pattern] });
  }
  if (schema.default !== undefined && isLiteral(schema.default)) {
    constraints.push({ keyword: 'default', label: 'default', values: [schema.default] });
  }
  if (schema.writeOnly === true) {
    constraints.push({ keyword: 'writeOnly', label: 'write-only: never returned in a response' });
  }
  if (schema.readOnly === true) constraints.push({ keyword: 'readOnly', label: 'read-only: ignored in a request' });
  return constraints;
}

/**
 * The object schema whose named members a field carries: the field itself, or its array's items.
 * A field whose value is a map or a choice of shapes has no named members to list.
 */
function memberObject(document: OpenApiDocument, field: ResolvedSchema): ResolvedSchema | undefined {
  const { schema, pointer } = field;
  if (schema.type === 'object' && schema.properties !== undefined) return field;
  if (schema.type === 'array' && 'items' in schema && schema.items !== undefined) {
    const items = resolveSchema(document, schema.items, childPointer(pointer, 'items'));
    if (items.schema.type === 'object' && items.schema.properties !== undefined) return items;
  }
  return undefined;
}

/**
 * A `oneOf` whose every branch is a `const` (an error's `code`) is a list of values, said as
 * such; other choices of shapes are already in the type label.
 */
function constantChoices(document: OpenApiDocument, field: ResolvedSchema): Constraint[] {
  const variants = alternatives(document, field);
  if (variants.length === 0 || !variants.every((variant) => isLiteral(variant.schema.const))) return [];
  return [{ keyword: 'oneOf', label: 'one of', values: variants.map((variant) => variant.schema.const as LiteralValue) }];
}

/**
 * The choices of a `oneOf` of constants, then the other constraints, without an `enum` that lists
 * the same values again (an error's `code` carries both: the `oneOf` describes each value, the
 * `enum` lets generators such as orval type the code as their union).
 */
function withoutRepeatedChoices(choices: Constraint[], constraints: Constraint[]): Constraint[] {
  const listed = new Set(choices.flatMap((choice) => choice.values ?? []));
  const repeats = (constraint: Constraint) =>
    constraint.keyword === 'enum' && constraint.values !== undefined && constraint.values.length === listed.size && constraint.values.every((value) => listed.has(value));
  return [...choices, ...constraints.filter((constraint) => !repeats(constraint))];
}

/** Deeper than this, a page would be unreadable anyway; the contract nests one level today. */
const maximumNesting = 4;

/**
 * The fields of an object schema, in the order the contract lists them, with the members of
 * nested objects. `depth` stops a schema that refers to itself from nesting forever.
 */
export function fieldsOf(document: OpenApiDocument, object: ResolvedSchema, depth = 0): Field[] {
  const { schema, pointer } = object;
  if (schema.type !== 'object' || schema.properties === undefined) {
    throw contractError(pointer, 'is expected to be an object schema with `properties`');
  }
  const properties = schema.properties;
  const required = schema.required ?? [];
  for (const name of required) {
    if (!(name in properties)) throw contractError(pointer, `requires \`${name}\`, which is not one of its properties`);
  }
  return Object.entries(properties).map(([name, value]): Field => {
    const field = resolveSchema(document, value, childPointer(pointer, 'properties', name));
    const nested = depth < maximumNesting ? memberObject(document, field) : undefined;
    return {
      name,
      type: typeLabel(document, field),
      required: required.includes(name),
      constraints: withoutRepeatedChoices(constantChoices(document, field), constraintsOf(field.schema, field.pointer)),
      description: withoutExtensibleMarker(field.schema.description ?? ''),
      deprecated: field.schema.deprecated === true,
      pointer: field.pointer,
      members: nested === undefined ? [] : fieldsOf(document, nested, depth + 1),
    };
  });
}
