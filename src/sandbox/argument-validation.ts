import type { ArgumentSchema } from './route-arguments.ts';

/**
 * WordPress's argument validation (`rest_validate_value_from_schema`, then
 * `rest_sanitize_value_from_schema`) for the keywords a route argument of this contract uses,
 * with PHP's own notion of a number: a numeric string such as `"12"` or `" 12.0"` passes an integer
 * argument and is handed to the plugin as 12.
 */

const nullCast: Record<string, unknown> = { integer: 0, number: 0, string: '', boolean: false };

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

/** PHP's `mb_strlen`: code points, not UTF-16 units. */
function characterCount(text: string): number {
  return [...text].length;
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
 * null but still sanitises it, so a null the plugin receives is PHP's cast of null: 0 or "".
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
    default:
      return value;
  }
}
