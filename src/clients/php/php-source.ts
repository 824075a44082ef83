/**
 * How the generator writes PHP: names, literals and doc comments, for PHP 7.4 (the floor the
 * package states; src/clients/php/php-74-syntax.ts refuses anything newer in what it writes).
 */
import type { Constraint, Field, LiteralValue } from '../../lib/contract/model.ts';

import { nameWords } from '../../lib/samples/client-libraries.ts';

/** The package's root namespace and its Composer name, shared with the action pages' samples. */
export { phpClientNamespace as phpNamespace, composerPackageName } from '../../lib/samples/client-libraries.ts';

/** The oldest PHP the package runs on: WooCommerce's own floor. */
export const phpFloor = '7.4';

/** `on-hold` → `ON_HOLD`: a class constant. */
export function constantName(text: string): string {
  return nameWords(text).join('_').toUpperCase();
}

/** A single-quoted PHP string: only the backslash and the quote need escaping there. */
export function phpString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A JSON-like value as a PHP literal: short arrays, lists or maps. */
export function phpValue(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return phpString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((item) => phpValue(item, indent)).join(', ')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '[]';
  return `[\n${entries.map(([key, item]) => `${inner}${phpString(key)} => ${phpValue(item, inner)},`).join('\n')}\n${indent}]`;
}

/** Markdown turned into doc comment lines: paragraphs kept, wrapped at about 96 columns, `*\/` made harmless. */
export function docLines(markdown: string, width = 96): string[] {
  const paragraphs = markdown.replace(/\*\//g, '*\\/').trim().split(/\n\s*\n/);
  const lines: string[] = [];
  for (const [index, paragraph] of paragraphs.entries()) {
    if (index > 0) lines.push('');
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line !== '' && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** A doc comment at an indentation, from lines (an empty line stays a bare `*`). */
export function docComment(lines: readonly string[], indent = ''): string {
  return [`${indent}/**`, ...lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)), `${indent} */`].join('\n');
}

/** The PHP type of a field's value for a parameter, or undefined when PHP 7.4 has no single one (a union). */
export function phpType(field: Pick<Field, 'type'>): string | undefined {
  const labels = field.type.split(' or ').map((label) => label.replace(/ \(.*\)$/, ''));
  const nullable = labels.includes('null');
  const types = labels.filter((label) => label !== 'null');
  const [only] = types;
  if (only === undefined || types.length > 1) return undefined;
  const scalar: Record<string, string> = { string: 'string', integer: 'int', number: 'float', boolean: 'bool', object: 'array' };
  const mapped = only.startsWith('array') ? 'array' : scalar[only];
  if (mapped === undefined) return undefined;
  return nullable ? `?${mapped}` : mapped;
}

/** The type PHPDoc gives a field, unions included. */
export function phpDocType(field: Pick<Field, 'type'>): string {
  return field.type
    .split(' or ')
    .map((label) => label.replace(/ \(.*\)$/, ''))
    .map((label) => (label.startsWith('array of ') ? `${phpDocType({ type: label.slice('array of '.length) })}[]` : phpType({ type: label }) ?? (label === 'null' ? 'null' : 'mixed')))
    .join('|');
}

/** The keywords the client checks before sending, with the number or values each sets. */
export interface FieldRule {
  type: string;
  required: boolean;
  /** Each bound the contract sets, with the phrase the error names it by ("at least 1"). */
  bounds: { keyword: string; limit?: number; values?: LiteralValue[]; label: string }[];
}

const checkedKeywords = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'enum', 'const', 'pattern', 'minItems', 'maxItems']);

/** What the client checks of a field: its type and every bound the contract closes (an extensible list is left open). */
export function fieldRule(field: Field): FieldRule {
  const label = (constraint: Constraint): string => {
    if (constraint.values === undefined || constraint.keyword === 'pattern') return constraint.keyword === 'pattern' ? `matching ${String(constraint.values?.[0])}` : constraint.label;
    return `${constraint.label} ${constraint.values.map((value) => JSON.stringify(value)).join(', ')}`;
  };
  return {
    type: field.type.replace(/ \(.*\)$/, ''),
    required: field.required,
    bounds: field.constraints
      .filter((constraint) => checkedKeywords.has(constraint.keyword))
      .map((constraint) => ({
        keyword: constraint.keyword,
        ...(constraint.limit === undefined ? {} : { limit: constraint.limit }),
        ...(constraint.values === undefined ? {} : { values: constraint.values }),
        label: label(constraint),
      })),
  };
}
