import type { Action } from '../lib/contract/actions.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Field, LiteralValue } from '../lib/contract/fields.ts';

/**
 * The JSON Schema keywords WordPress's `rest_validate_value_from_schema` understands for a route
 * argument, in WordPress's own dialect (draft 4: `exclusiveMinimum` is a flag beside `minimum`).
 */
export interface ArgumentSchema {
  type: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: LiteralValue[];
}

/** One entry of the route's `args`, as `register_rest_route` receives it. */
export interface RouteArgument {
  name: string;
  /** Core answers `rest_missing_callback_param` when a required argument is absent or null. */
  required: boolean;
  schema: ArgumentSchema;
}

function schemaOf(field: Field, selectorValues: LiteralValue[] | undefined): ArgumentSchema {
  const schema: ArgumentSchema = { type: field.type.replace(/ \(.*\)$/, '') };
  for (const constraint of field.constraints) {
    const limit = constraint.limit;
    switch (constraint.keyword) {
      case 'minimum':
      case 'maximum':
      case 'minLength':
      case 'maxLength':
        schema[constraint.keyword] = limit;
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
 */
export function routeArguments(contract: ExecutableContract): RouteArgument[] {
  const { actions, envelope } = contract.model;
  const identifiers = actions.map((action) => action.identifier);
  const byName = new Map<string, { field: Field; requiredBy: Set<Action> }>();
  for (const action of actions) {
    for (const field of action.fields) {
      const entry = byName.get(field.name) ?? { field, requiredBy: new Set<Action>() };
      if (field.required) entry.requiredBy.add(action);
      byName.set(field.name, entry);
    }
  }
  return [...byName.values()].map(({ field, requiredBy }) => ({
    name: field.name,
    required: field.name !== envelope.credential && requiredBy.size === actions.length,
    schema: schemaOf(field, field.name === envelope.selector ? identifiers : undefined),
  }));
}
