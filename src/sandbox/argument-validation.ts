import type { ArgumentSchema } from '../lib/contract/route-arguments.ts';

/**
 * WordPress's argument validation (`rest_validate_value_from_schema`, then
 * `rest_sanitize_value_from_schema`) for the keywords a route argument of this contract uses,
 * with PHP's own notion of a number: a numeric string such as `"12"` or `" 12.0"` passes an integer
 * argument and is handed to the plugin as 12.
 */

const nullCast: Record<string, unknown> = { integer: 0, number: 0, string: '', boolean: false, array: [] };

/** PHP's string of a scalar, as `wp_parse_list` splits it: `true` is "1", `false` is "". */
function phpScalarText(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '';
  return String(value);
}

/**
 * The list WordPress reads an array argument as (`rest_is_array`, `rest_sanitize_array`): a JSON
 * array; a scalar split on commas and white space (`wp_parse_list`: "a, b" is two items); an object
 * whose keys are all integers (PHP's numeric array), its values. Anything else is no list.
 */
function listOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return phpScalarText(value).split(/[\s,]+/).filter((item) => item !== '');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.every(([key]) => /^(0|-?[1-9]\d*)$/.test(key)) ? entries.map(([, item]) => item) : undefined;
  }
  return undefined;
}

/** `rest_validate_array_contains_unique_items`: items compared with their PHP type, so "1" and 1 differ. */
function hasDuplicates(items: readonly unknown[]): boolean {
  const seen = new Set(items.map((item) => `${typeof item}:${JSON.stringify(item)}`));
  return seen.size !== items.length;
}

/** `rest_validate_array_value_from_schema`: the list, then each item, then its length, then duplicates. */
function arrayProblem(name: string, value: unknown, schema: ArgumentSchema): ArgumentProblem | undefined {
  const items = listOf(value);
  if (items === undefined) return typeProblem(name, 'array');
  if (schema.items !== undefined) {
    for (const [index, item] of items.entries()) {
      const problem = validateArgument(`${name}[${index}]`, item, schema.items);
      if (problem !== undefined) return problem;
    }
  }
  if (schema.minItems !== undefined && items.length < schema.minItems) {
    return { code: 'rest_too_few_items', message: `${name} must contain at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.` };
  }
  if (schema.maxItems !== undefined && items.length > schema.maxItems) {
    return { code: 'rest_too_many_items', message: `${name} must contain at most ${schema.maxItems} item${schema.maxItems === 1 ? '' : 's'}.` };
  }
  if (schema.uniqueItems === true && hasDuplicates(items)) return { code: 'rest_duplicate_items', message: `${name} has duplicate items.` };
  return undefined;
}

/** One rejected argument, as WordPress reports it in `data.details`. */
export interface ArgumentProblem {
  code: string;
  message: string;
  /** The error's own `data`: WordPress gives `rest_invalid_type` the parameter's name, the others none. */
  data?: { param: string };
}

/** PHP's `wp_sprintf( '%l', … )`: "a", "a and b", "a, b, and c". */
export function phpListText(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1) ?? ''}`;
}

// PHP 8's numeric strings: optional surrounding whitespace, a sign, digits with a fraction, an exponent.
const numericString = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP's `is_numeric`. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return true;
  return typeof value === 'string' && numericString.test(value);
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value).trim());
}

/** WordPress's `rest_is_integer`: numeric, and a whole number once read as a float. */
export function isInteger(value: unknown): boolean {
  if (!isNumeric(value)) return false;
  const number = numberOf(value);
  return !Number.isFinite(number) || Math.round(number) === number;
}

function isBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(value.toLowerCase());
  return value === 0 || value === 1;
}

function typeProblem(name: string, type: string): ArgumentProblem {
  return { code: 'rest_invalid_type', message: `${name} is not of type ${type}.`, data: { param: name } };
}

function boundsProblem(name: string, value: number, schema: ArgumentSchema): ArgumentProblem | undefined {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && (schema.exclusiveMinimum === true ? value <= minimum : value < minimum)) {
    return { code: 'rest_out_of_bounds', message: `${name} must be greater than ${schema.exclusiveMinimum === true ? '' : 'or equal to '}${minimum}` };
  }
  if (maximum !== undefined && (schema.exclusiveMaximum === true ? value >= maximum : value > maximum)) {
    return { code: 'rest_out_of_bounds', message: `${name} must be less than ${schema.exclusiveMaximum === true ? '' : 'or equal to '}${maximum}` };
  }
  return undefined;
}

/** PHP's `mb_strlen`: code points, not UTF-16 units; a surrogate pair counts once, a lone surrogate once. */
function characterCount(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        index += 1;
      }
    }
  }
  return count;
}

/** The one type of a multi-type schema a value is read as (`rest_handle_multi_type_schema`): the first it passes. */
function typeFor(value: unknown, schema: ArgumentSchema): string {
  if (!Array.isArray(schema.type)) return schema.type;
  if (value === null && schema.type.includes('null')) return 'null';
  const types = schema.type.filter((type) => type !== 'null');
  return types.find((type) => validateArgument('', value, { ...schema, type }) === undefined) ?? types[0] ?? 'null';
}

/** What WordPress says is wrong with one argument's value, or undefined when it passes. */
export function validateArgument(name: string, value: unknown, schema: ArgumentSchema): ArgumentProblem | undefined {
  if (Array.isArray(schema.type)) return validateArgument(name, value, { ...schema, type: typeFor(value, schema) });
  switch (schema.type) {
    case 'integer':
    case 'number':
      if (!isNumeric(value)) return typeProblem(name, schema.type);
      if (schema.type === 'integer' && !isInteger(value)) return typeProblem(name, schema.type);
      {
        const bounds = boundsProblem(name, numberOf(value), schema);
        if (bounds !== undefined) return bounds;
      }
      break;
    case 'string':
      if (typeof value !== 'string') return typeProblem(name, 'string');
      if (schema.minLength !== undefined && characterCount(value) < schema.minLength) {
        return { code: 'rest_too_short', message: `${name} must be at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'} long.` };
      }
      if (schema.maxLength !== undefined && characterCount(value) > schema.maxLength) {
        return { code: 'rest_too_long', message: `${name} must be at most ${schema.maxLength} character${schema.maxLength === 1 ? '' : 's'} long.` };
      }
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
        return { code: 'rest_invalid_pattern', message: `${name} does not match pattern ${schema.pattern}.` };
      }
      break;
    case 'boolean':
      if (!isBoolean(value)) return typeProblem(name, 'boolean');
      break;
    case 'array': {
      const problem = arrayProblem(name, value, schema);
      if (problem !== undefined) return problem;
      break;
    }
    default:
      break;
  }
  if (schema.enum !== undefined) {
    const sanitized = sanitizeArgument(value, schema);
    if (!schema.enum.some((allowed) => allowed === sanitized)) {
      return { code: 'rest_not_in_enum', message: `${name} is not one of ${phpListText(schema.enum.map(String))}.` };
    }
  }
  return undefined;
}

/**
 * The value the plugin receives once WordPress has sanitised an argument. Core skips validating a
 * null but still sanitises it, so a null the plugin receives is PHP's cast of null: 0, "" or [].
 */
export function sanitizeArgument(value: unknown, schema: ArgumentSchema): unknown {
  const type = typeFor(value, schema);
  if (value === null) return nullCast[type] ?? null;
  switch (type) {
    case 'integer':
      return isNumeric(value) ? Math.trunc(numberOf(value)) : value;
    case 'number':
      return isNumeric(value) ? numberOf(value) : value;
    case 'boolean':
      return isBoolean(value) ? !['false', '0', 0, false].includes(typeof value === 'string' ? value.toLowerCase() : (value as number | boolean)) : value;
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'array': {
      // `rest_sanitize_array`: no list is an empty one; each item sanitised by the items' schema.
      const items = listOf(value) ?? [];
      return schema.items === undefined ? items : items.map((item) => sanitizeArgument(item, schema.items as ArgumentSchema));
    }
    default:
      return value;
  }
}
