/**
 * JSON values written as literals of the languages the samples are in, so a sample's body reads
 * as the reader's language rather than as a JSON string.
 */
import { isRecord } from '../contract/document.ts';

const identifier = /^[A-Za-z_$][\w$]*$/;

/** A JSON value written as a JavaScript literal: keys unquoted where JavaScript allows it. */
export function javascriptLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${javascriptLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const name = identifier.test(key) ? key : JSON.stringify(key);
      return `${inner}${name}: ${javascriptLiteral(item, inner)},`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export function phpString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A JSON value written as a PHP literal that `wp_json_encode()` turns back into the same JSON. */
export function phpLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'array()';
    return `array(\n${value.map((item) => `${inner}${phpLiteral(item, inner)},`).join('\n')}\n${indent})`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    // An empty PHP array encodes as `[]`; only an object encodes as `{}`.
    if (entries.length === 0) return 'new stdClass()';
    const width = Math.max(...entries.map(([key]) => phpString(key).length));
    const lines = entries.map(([key, item]) => `${inner}${phpString(key).padEnd(width)} => ${phpLiteral(item, inner)},`);
    return `array(\n${lines.join('\n')}\n${indent})`;
  }
  if (typeof value === 'string') return phpString(value);
  return JSON.stringify(value);
}

/** A JSON value written as a Python literal that `json.dumps()` turns back into the same JSON. */
export function pythonLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
  }
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  return JSON.stringify(value);
}
