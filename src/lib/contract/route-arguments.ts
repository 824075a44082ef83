import type { ExecutableContract } from './executable-contract.ts';
import { resolvePointer, type OpenApiDocument } from './document.ts';
import { constraintsOf, typeLabel } from './fields.ts';
import type { Field, LiteralValue } from './model.ts';
import { childPointer, contractError, resolveSchema } from './schemas.ts';

/**
 * The JSON Schema keywords WordPress's `rest_validate_value_from_schema` understands for a route
 * argument, in WordPress's own dialect (draft 4: `exclusiveMinimum` is a flag beside `minimum`).
 */
export interface ArgumentSchema {
  /** One type, or several (`['string', 'null']`) as WordPress's multi-type schemas allow. */
  type: string | string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: LiteralValue[];
  /** An array's items: one scalar schema, as `rest_validate_array_value_from_schema` checks each. */
  items?: ArgumentSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/**
 * One entry of the route's `args`, as `register_rest_route` receives it: the one derivation both
 * the sandbox and the reference plugin's generated contract (src/wordpress/generate.ts) use.
 */
export interface RouteArgument {
  name: string;
  /** Core answers `rest_missing_callback_param` when a required argument is absent or null. */
  required: boolean;
  schema: ArgumentSchema;
  /** Markdown from the contract; empty when the field has none. */
  description: string;
}

const describableTypes = ['string', 'integer', 'number', 'boolean', 'null'];

/** What a schema needs of a field: its name, type label, constraints and where it is written. */
type SchemaSource = Pick<Field, 'name' | 'type' | 'constraints' | 'pointer'>;

/**
 * The items of an array field, when they are scalars a route argument describes: WordPress's REST
 * schema describes an array by its `items` (and `minItems`, `maxItems`, `uniqueItems`).
 */
function scalarItemsOf(document: OpenApiDocument, field: SchemaSource): SchemaSource | undefined {
  if (!field.type.startsWith('array of ')) return undefined;
  const array = resolveSchema(document, resolvePointer(document, field.pointer), field.pointer);
  if (array.schema.type !== 'array' || !('items' in array.schema) || array.schema.items === undefined) return undefined;
  const items = resolveSchema(document, array.schema.items, childPointer(array.pointer, 'items'));
  const type = typeLabel(document, items);
  const scalar = type.split(' or ').every((label) => describableTypes.includes(label.replace(/ \(.*\)$/, '')));
  return scalar ? { name: field.name, type, constraints: constraintsOf(items.schema, items.pointer), pointer: items.pointer } : undefined;
}

/** A field's type as JSON Schema writes it: `integer`, `string`, or a list for `string or null`. */
function schemaType(field: SchemaSource): string | string[] {
  const types = field.type.split(' or ').map((label) => label.replace(/ \(.*\)$/, ''));
  const unsupported = types.find((type) => !describableTypes.includes(type));
  if (unsupported !== undefined) {
    throw contractError(field.pointer, `the field ${field.name} is of type ${field.type}, which a WordPress route argument does not describe yet`);
  }
  return types.length === 1 ? (types[0] ?? '') : types;
}

function schemaOf(document: OpenApiDocument, field: SchemaSource, selectorValues: LiteralValue[] | undefined): ArgumentSchema {
  const items = scalarItemsOf(document, field);
  const schema: ArgumentSchema = items === undefined ? { type: schemaType(field) } : { type: 'array', items: schemaOf(document, items, undefined) };
  for (const constraint of field.constraints) {
    const limit = constraint.limit;
    switch (constraint.keyword) {
      case 'minimum':
      case 'maximum':
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
        schema[constraint.keyword] = limit;
        break;
      case 'uniqueItems':
        schema.uniqueItems = true;
        break;
      case 'exclusiveMinimum':
        schema.minimum = limit;
        schema.exclusiveMinimum = true;
        break;
      case 'exclusiveMaximum':
        schema.maximum = limit;
        schema.exclusiveMaximum = true;
        break;
      case 'pattern':
        schema.pattern = String(constraint.values?.[0]);
        break;
      case 'enum':
      case 'const':
        if (constraint.values !== undefined) schema.enum = constraint.values;
        break;
      default:
        break;
    }
  }
  if (selectorValues !== undefined) schema.enum = selectorValues;
  return schema;
}

/**
 * The route's `args`, derived from the document as a plugin written the usual way declares them:
 * every field any action takes, once, with its schema; the selector as the list of identifiers;
 * `required` only where every action requires the field. The credential is never required here:
 * its absence belongs to the permission callback (the 401), which core runs after the arguments.
 * A field whose schema differs between actions cannot be one argument, and is refused: the gate
 * runs this derivation (src/gate/model-step.ts), so the sandbox never meets such a contract.
 */
export function routeArguments(contract: ExecutableContract): RouteArgument[] {
  const { actions, envelope } = contract.model;
  const identifiers = actions.map((action) => action.identifier);
  const sharedDescription = new Map(envelope.sharedFields.map((field) => [field.name, field.description.trim()]));
  const byName = new Map<string, { argument: RouteArgument; requiredBy: number }>();
  for (const action of actions) {
    for (const field of action.fields) {
      const schema = schemaOf(contract.document, field, field.name === envelope.selector ? identifiers : undefined);
      const earlier = byName.get(field.name);
      if (earlier !== undefined && JSON.stringify(earlier.argument.schema) !== JSON.stringify(schema)) {
        throw contractError(field.pointer, `${field.name} has another schema in ${action.identifier} than in an earlier action; one route argument cannot describe both`);
      }
      const entry = earlier ?? { argument: { name: field.name, required: false, schema, description: sharedDescription.get(field.name) ?? field.description.trim() }, requiredBy: 0 };
      if (field.required) entry.requiredBy += 1;
      byName.set(field.name, entry);
    }
  }
  return [...byName.values()].map(({ argument, requiredBy }) => ({
    ...argument,
    required: argument.name !== envelope.credential && requiredBy === actions.length,
  }));
}
