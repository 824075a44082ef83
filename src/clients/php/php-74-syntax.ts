/**
 * The package states PHP 7.4 as its floor, so nothing it ships may use newer syntax. php-parser
 * set to 7.4 refuses some of it (enum, match, nullsafe calls, named arguments, throw as an
 * expression) but parses other PHP 8 features all the same; the walk below refuses those.
 */
import { Engine } from 'php-parser';

export interface SyntaxProblem {
  file: string;
  line: number;
  message: string;
}

const engine = new Engine({ parser: { php7: true, version: '7.4', suppressErrors: false }, ast: { withPositions: true } });

/** Types PHP 7.4 does not have as a declared type. */
const newerTypes = new Set(['mixed', 'never', 'static', 'false', 'true', 'null']);

interface AstNode {
  kind?: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function newerFeature(node: AstNode): string | undefined {
  if (node.kind === 'uniontype') return 'a union type (PHP 8.0)';
  if (node.kind === 'intersectiontype') return 'an intersection type (PHP 8.1)';
  if (node.kind === 'enum') return 'an enum (PHP 8.1)';
  if (node.kind === 'match') return 'a match expression (PHP 8.0)';
  if (node.kind === 'nullsafepropertylookup') return 'the nullsafe operator (PHP 8.0)';
  if (node.readonly === true || node.isReadonly === true) return 'readonly (PHP 8.1)';
  if (node.kind === 'parameter' && typeof node.flags === 'number' && node.flags !== 0) return 'constructor property promotion (PHP 8.0)';
  if (Array.isArray(node.attrGroups) && node.attrGroups.length > 0) return 'an attribute (PHP 8.0)';
  if (node.kind === 'typereference' && typeof node.name === 'string' && newerTypes.has(node.name.toLowerCase())) return `the type ${node.name} (PHP 8)`;
  return undefined;
}

/** Every use of syntax newer than PHP 7.4 in one file's source, or the parser's refusal. */
export function php74Problems(file: string, source: string): SyntaxProblem[] {
  let program: unknown;
  try {
    program = engine.parseCode(source, file);
  } catch (error) {
    const line = (error as { lineNumber?: number }).lineNumber ?? 0;
    return [{ file, line, message: `PHP 7.4 cannot parse it: ${(error as Error).message}` }];
  }
  const problems: SyntaxProblem[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!isNode(value)) return;
    const feature = newerFeature(value);
    if (feature !== undefined) problems.push({ file, line: value.loc?.start.line ?? 0, message: `uses ${feature}, newer than PHP 7.4` });
    for (const [key, child] of Object.entries(value)) if (key !== 'loc') visit(child);
  };
  visit(program);
  return problems;
}
