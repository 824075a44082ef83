/**
 * How the generator writes PHP: names, literals and doc comments, for PHP 7.4 (the floor the
 * package states; src/clients/php/php-74-syntax.ts refuses anything newer in what it writes).
 */
import type { Field, LiteralValue } from '../../lib/contract/model.ts';

import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { nameWords } from '../../lib/samples/client-libraries.ts';
import { boundPhrase, fieldRule as sharedFieldRule, type FieldBound as SharedFieldBound } from '../shared/field-rules.ts';

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

/** A bound the client checks before sending, as the runtime's FieldCheck reads it. */
export interface FieldBound {
  keyword: string;
  limit?: number;
  values?: readonly LiteralValue[];
  /** The phrase a message names it by: "at least 1", "one of \"active\", \"paused\"". */
  label: string;
}

/** What the client checks of a field (src/clients/php/runtime/Internal/FieldCheck.php reads it). */
export interface FieldRule {
  /** The JSON types the field takes: `string`, `integer`, `number`, `boolean`, `null`, `array`, `object`. */
  types: readonly string[];
  required: boolean;
  bounds: FieldBound[];
  /** The types and bounds of a list's items. */
  items?: { types: readonly string[]; bounds: FieldBound[] };
}

/**
 * What the client checks of a field, read as every library reads it (src/clients/shared/field-rules.ts),
 * each bound labelled with the values it names for the runtime's messages.
 */
export function fieldRule(contract: ExecutableContract, field: Field): FieldRule {
  const { types, required, bounds, items } = sharedFieldRule(contract, field);
  const phpBound = (bound: SharedFieldBound): FieldBound => ({
    keyword: bound.keyword,
    ...(bound.limit === undefined ? {} : { limit: bound.limit }),
    ...(bound.values === undefined ? {} : { values: bound.values }),
    label: boundPhrase(bound),
  });
  return { types, required, bounds: bounds.map(phpBound), ...(items === undefined ? {} : { items: { types: items.types, bounds: items.bounds.map(phpBound) } }) };
}

/** A field's type in a PHPDoc array shape: its enum's values as literals when it has them, else its PHPDoc type. */
export function shapeType(field: Pick<Field, 'type' | 'constraints'>): string {
  const listed = field.constraints.find((constraint) => (constraint.keyword === 'enum' || constraint.keyword === 'const') && constraint.values !== undefined);
  if (listed?.values !== undefined) return listed.values.map((value) => (typeof value === 'string' ? phpString(value) : JSON.stringify(value))).join('|');
  return phpDocType(field);
}

/**
 * The PHPDoc array shape (PHPStan's and Psalm's) of an action's fields:
 * `array{subscription_id: int, note?: string}`. A field a later release adds is still accepted at
 * run time; the shape tells a checker what this release knows.
 */
export function arrayShape(fields: readonly Pick<Field, 'name' | 'type' | 'constraints' | 'required'>[]): string {
  const key = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : phpString(name));
  return `array{${fields.map((field) => `${key(field.name)}${field.required ? '' : '?'}: ${shapeType(field)}`).join(', ')}}`;
}

/**
 * The `@param` tag of an action's fields: its array shape on one line when it is short, else one
 * field a line (PHPStan and Psalm read both), so that no doc comment line passes PSR-12's length.
 */
export function arrayShapeParam(fields: readonly Pick<Field, 'name' | 'type' | 'constraints' | 'required'>[], variable = '$fields'): string[] {
  const oneLine = `@param ${arrayShape(fields)} ${variable}`;
  if (oneLine.length <= 90) return [oneLine];
  const members = arrayShape(fields).slice('array{'.length, -1).split(', ').filter((member) => member !== '');
  // A listed field's values are joined by | without spaces, so splitting on ", " splits only between fields.
  return ['@param array{', ...members.map((member, index) => `    ${member}${index < members.length - 1 ? ',' : ''}`), `} ${variable}`];
}

/** The doc comment every generated PHP file opens with: what it came from, and not to edit it. */
export function generatedHeader(documentVersion: string, generator: string): string {
  return docComment(docLines(`Generated from the OpenAPI document ${documentVersion} of the subscription lifecycle endpoint by ${generator} of the project that publishes it. Do not edit it: a change is lost at the next generation; change the contract or the generator instead.`));
}

/** The top of a generated PHP file: the opening tag, the header, strict types and the namespace. */
export function generatedFileStart(documentVersion: string, generator: string, namespace: string, uses: readonly string[] = []): string {
  return ['<?php', '', generatedHeader(documentVersion, generator), '', 'declare(strict_types=1);', '', `namespace ${namespace};`, ...(uses.length > 0 ? ['', ...uses.map((use) => `use ${use};`)] : []), ''].join('\n');
}
