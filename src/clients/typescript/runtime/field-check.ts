import type { FieldBound, FieldRule, LiteralValue } from './description.ts';
import { InvalidFieldError } from './errors.ts';

const typeWords: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  array: 'a list',
  object: 'an object',
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      // A type this runtime does not know is the service's to judge.
      return true;
  }
}

/** The longest string, in characters, a refusal quotes whole; a longer one is described by its length. */
const quotedStringLimit = 40;

/** What a refused value was, said without printing a long text in full. */
function described(value: unknown): string {
  if (value === undefined) return 'it is missing';
  if (typeof value === 'string') {
    const characters = Array.from(value).length;
    return `got ${characters > quotedStringLimit ? `a string of ${characters} characters` : JSON.stringify(value)}`;
  }
  if (Array.isArray(value)) return `got a list of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'got an object';
  return `got ${String(value)}`;
}

const sameLiteral = (values: readonly LiteralValue[] | undefined, value: unknown): boolean => (values ?? []).some((candidate) => candidate === value);

/** The bound a value breaks, or undefined when it keeps every bound the runtime knows. */
function brokenBound(value: unknown, bounds: readonly FieldBound[]): FieldBound | undefined {
  return bounds.find((bound) => {
    const limit = bound.limit;
    switch (bound.keyword) {
      case 'enum':
      case 'const':
      case 'oneOf':
        return !sameLiteral(bound.values, value);
      case 'minLength':
        return typeof value === 'string' && limit !== undefined && [...value].length < limit;
      case 'maxLength':
        return typeof value === 'string' && limit !== undefined && [...value].length > limit;
      case 'minimum':
        return typeof value === 'number' && limit !== undefined && value < limit;
      case 'maximum':
        return typeof value === 'number' && limit !== undefined && value > limit;
      case 'exclusiveMinimum':
        return typeof value === 'number' && limit !== undefined && value <= limit;
      case 'exclusiveMaximum':
        return typeof value === 'number' && limit !== undefined && value >= limit;
      case 'minItems':
        return Array.isArray(value) && limit !== undefined && value.length < limit;
      case 'maxItems':
        return Array.isArray(value) && limit !== undefined && value.length > limit;
      case 'uniqueItems':
        return Array.isArray(value) && new Set(value.map((item) => JSON.stringify(item))).size !== value.length;
      case 'pattern':
        return typeof value === 'string' && typeof bound.values?.[0] === 'string' && !new RegExp(bound.values[0], 'u').test(value);
      default:
        return false;
    }
  });
}

/** A bound as a refusal says it, with the values an `enum` or a `const` allows: `one of "active", "paused"`. */
function boundPhrase(bound: FieldBound): string {
  return `${bound.label}${bound.values === undefined ? '' : ` ${bound.values.map((item) => JSON.stringify(item)).join(', ')}`}`;
}

function typeBound(types: readonly string[]): string {
  return types.map((type) => typeWords[type] ?? type).join(' or ');
}

/**
 * Checks the fields of one action against the contract before anything is sent: each required
 * field is there, each field has its type and keeps its bounds. A field the contract does not
 * name is left to the service, which answers for it.
 */
export function checkFields(action: string, rules: readonly FieldRule[], fields: Readonly<Record<string, unknown>>): void {
  for (const rule of rules) {
    const value = fields[rule.name];
    if (value === undefined || (value === null && !rule.types.includes('null'))) {
      if (rule.required) throw new InvalidFieldError(action, rule.name, `given (it is required): ${typeBound(rule.types)}${rule.bounds.length > 0 ? `, ${rule.bounds.map(boundPhrase).join(', ')}` : ''}`, described(value));
      continue;
    }
    if (!rule.types.some((type) => hasType(value, type))) throw new InvalidFieldError(action, rule.name, typeBound(rule.types), described(value));
    const broken = brokenBound(value, rule.bounds);
    if (broken !== undefined) throw new InvalidFieldError(action, rule.name, boundPhrase(broken), described(value));
    if (rule.items !== undefined && Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const name = `${rule.name}[${index}]`;
        if (!rule.items.types.some((type) => hasType(item, type))) throw new InvalidFieldError(action, name, typeBound(rule.items.types), described(item));
        const brokenItem = brokenBound(item, rule.items.bounds);
        if (brokenItem !== undefined) throw new InvalidFieldError(action, name, boundPhrase(brokenItem), described(item));
      }
    }
  }
}
