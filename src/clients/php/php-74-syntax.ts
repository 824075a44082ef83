/**
 * The one check that PHP code runs on the oldest PHP the pages and the library promise
 * (`phpFloor`, PHP 7.4): the packing of the library (`package.ts`) refuses a package that fails
 * it, and tests/unit/php-floor.test.ts runs it on every PHP sample, the packed library's files and
 * any `.php` file under src/clients/php/. The `php-parser` package set to that version refuses the
 * newer statements and expressions itself (match, nullsafe calls, named arguments, throw as an
 * expression, enums, catch without a variable); the walk then finds what that parser reads at any
 * version though PHP did not (readonly properties, union and intersection types, mixed and other
 * newer types, promoted constructor parameters, attributes, property hooks, `::class` on an
 * object, functions added later).
 */
import { Engine } from 'php-parser';
import { phpFloor } from '../../lib/samples/php-floor.ts';

/** A newer PHP's feature the parser at the floor still reads: the version that brought it, and what it is. */
interface NewerFeature {
  since: string;
  what: string;
}

/** Type names PHP reads as a type only from a later version: as a name before then, they name a class that does not exist. */
const newerTypes: Record<string, string> = { mixed: '8.0', static: '8.0', never: '8.1', null: '8.2', false: '8.2', true: '8.2' };

/** Functions of PHP's core and bundled extensions that a later version added. */
const newerFunctions: Record<string, string> = {
  str_contains: '8.0',
  str_starts_with: '8.0',
  str_ends_with: '8.0',
  get_debug_type: '8.0',
  get_resource_id: '8.0',
  fdiv: '8.0',
  preg_last_error_msg: '8.0',
  array_is_list: '8.1',
  json_validate: '8.3',
  mb_str_pad: '8.3',
  array_find: '8.4',
  array_any: '8.4',
  array_all: '8.4',
};

function versionNumber(version: string): number {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major * 100 + minor;
}

type AstNode = { kind?: string; loc?: { start: { line: number } } | null } & Record<string, unknown>;

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

function newerFeature(node: AstNode): NewerFeature | undefined {
  switch (node.kind) {
    case 'property':
      if (node.readonly === true) return { since: '8.1', what: 'a readonly property' };
      if (Array.isArray(node.hooks) && node.hooks.length > 0) return { since: '8.4', what: 'a property hook' };
      return undefined;
    case 'propertystatement':
      return node.visibilitySet ? { since: '8.4', what: 'asymmetric visibility' } : undefined;
    case 'class':
      return node.isReadonly === true ? { since: '8.2', what: 'a readonly class' } : undefined;
    case 'parameter':
      if (node.readonly === true || (typeof node.flags === 'number' && node.flags !== 0)) return { since: '8.0', what: 'a promoted constructor parameter' };
      return undefined;
    case 'uniontype':
      return { since: '8.0', what: 'a union type' };
    case 'intersectiontype':
      return { since: '8.1', what: 'an intersection type' };
    case 'typereference': {
      const name = String(node.name).toLowerCase();
      const since = newerTypes[name];
      return since === undefined ? undefined : { since, what: `the type ${name}` };
    }
    case 'attrgroup':
      return { since: '8.0', what: 'an attribute' };
    case 'staticlookup': {
      const offset = node.offset as AstNode | undefined;
      const what = node.what as AstNode | undefined;
      if (offset?.kind === 'identifier' && String(offset.name).toLowerCase() === 'class' && what?.kind !== 'name' && what?.kind !== 'selfreference' && what?.kind !== 'staticreference' && what?.kind !== 'parentreference') {
        return { since: '8.0', what: '::class on an object' };
      }
      return undefined;
    }
    case 'call': {
      const what = node.what as AstNode | undefined;
      if (what?.kind !== 'name') return undefined;
      const name = String(what.name).replace(/^\\/, '').toLowerCase();
      const since = newerFunctions[name];
      return since === undefined ? undefined : { since, what: `${name}()` };
    }
    default:
      return undefined;
  }
}

/** One use of something newer than the floor: where, and what it is with the PHP that brought it. */
export interface SyntaxProblem {
  file: string;
  line: number;
  message: string;
}

/** What in `code` needs a PHP newer than `version` (the floor by default); empty when it runs there. */
export function phpProblems(code: string, file: string, version: string = phpFloor.version): SyntaxProblem[] {
  const engine = new Engine({ parser: { php7: true, version, suppressErrors: false, extractDoc: false }, ast: { withPositions: true } });
  let program: unknown;
  try {
    program = engine.parseCode(code, file);
  } catch (error) {
    const line = (error as { lineNumber?: number }).lineNumber ?? 0;
    return [{ file, line, message: `${(error as Error).message} (not PHP ${version})` }];
  }
  const problems: SyntaxProblem[] = [];
  const floor = versionNumber(version);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isNode(value)) return;
    const feature = newerFeature(value);
    if (feature !== undefined && versionNumber(feature.since) > floor) problems.push({ file, line: value.loc?.start.line ?? 0, message: `${feature.what} (PHP ${feature.since})` });
    for (const [key, child] of Object.entries(value)) if (key !== 'loc') visit(child);
  };
  visit(program);
  return problems;
}

/** The same, each as `file:line: what (PHP since)`. */
export function phpNewerThan(code: string, file: string, version: string = phpFloor.version): string[] {
  return phpProblems(code, file, version).map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);
}

/** What in one file of the library needs a PHP newer than the floor: the packing's refusal. */
export function php74Problems(file: string, source: string): SyntaxProblem[] {
  return phpProblems(source, file);
}
