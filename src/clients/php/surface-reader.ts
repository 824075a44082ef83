/**
 * The public surface of the PHP library, read from its generated source with php-parser: every
 * class and interface, their public constants and methods with each parameter's name, position,
 * type and default, and the options the client's constructor accepts. A caller of a release can
 * only use what is listed here, so this is what the next release must keep (see surface.ts).
 */
import { Engine } from 'php-parser';
import type { PhpClass, PhpMethod, PhpParameter, PhpSurface } from './surface.ts';

interface AstNode {
  kind?: string;
  loc?: { source?: string | null };
  [key: string]: unknown;
}

const engine = new Engine({ parser: { php8: true, suppressErrors: false, extractDoc: false }, ast: { withPositions: true, withSource: true } });

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function identifierName(value: unknown): string {
  if (typeof value === 'string') return value;
  return isNode(value) && typeof value.name === 'string' ? value.name : '';
}

/** A name as the file's namespace and `use` statements resolve it. */
function resolver(namespace: string, uses: ReadonlyMap<string, string>): (node: unknown) => string {
  return (node) => {
    const name = identifierName(node);
    if (name === '') return '';
    if (name.startsWith('\\')) return name.slice(1);
    const [head = '', ...rest] = name.split('\\');
    const used = uses.get(head.toLowerCase());
    if (used !== undefined) return [used, ...rest].join('\\');
    return namespace === '' ? name : `${namespace}\\${name}`;
  };
}

const builtinTypes = new Set(['int', 'float', 'string', 'bool', 'array', 'callable', 'iterable', 'object', 'mixed', 'void', 'null', 'false', 'true', 'never', 'self', 'static', 'parent']);

function typeText(type: unknown, nullable: boolean, resolve: (node: unknown) => string): string {
  if (!isNode(type)) return '';
  let text: string;
  if (type.kind === 'uniontype' || type.kind === 'intersectiontype') {
    const parts = (type.types as unknown[]).map((part) => typeText(part, false, resolve));
    text = parts.join(type.kind === 'uniontype' ? '|' : '&');
  } else if (type.kind === 'typereference' || builtinTypes.has(identifierName(type).toLowerCase())) {
    text = identifierName(type).toLowerCase();
  } else {
    text = resolve(type);
  }
  return nullable ? `?${text}` : text;
}

function sourceOf(node: unknown): string {
  return isNode(node) && typeof node.loc?.source === 'string' ? node.loc.source.replace(/\s+/g, ' ').trim() : '';
}

/** The string keys of an array literal. */
function arrayKeys(node: unknown): string[] {
  if (!isNode(node) || node.kind !== 'array') return [];
  return (node.items as unknown[]).flatMap((item) => (isNode(item) && isNode(item.key) && item.key.kind === 'string' ? [String(item.key.value)] : []));
}

function isPublic(visibility: unknown): boolean {
  return visibility === undefined || visibility === null || visibility === '' || visibility === 'public';
}

function readClass(node: AstNode, file: string, resolve: (node: unknown) => string): PhpClass {
  const name = resolve(node.name);
  const constants: Record<string, string> = {};
  const privateArrays = new Map<string, string[]>();
  const methods: PhpMethod[] = [];
  let constructorTakesOptions = false;
  for (const member of (node.body as unknown[]) ?? []) {
    if (!isNode(member)) continue;
    if (member.kind === 'classconstant') {
      for (const constant of (member.constants as AstNode[]) ?? []) {
        const constantName = identifierName(constant.name);
        if (isPublic(member.visibility)) constants[constantName] = sourceOf(constant.value);
        else privateArrays.set(constantName, arrayKeys(constant.value));
      }
    }
    if (member.kind === 'method' && isPublic(member.visibility)) {
      const parameters = ((member.arguments as AstNode[]) ?? []).map((parameter): PhpParameter => ({
        name: identifierName(parameter.name),
        type: typeText(parameter.type, parameter.nullable === true, resolve),
        ...(parameter.value === null || parameter.value === undefined ? {} : { default: sourceOf(parameter.value) }),
        ...(parameter.variadic === true ? { variadic: true } : {}),
      }));
      const methodName = identifierName(member.name);
      if (methodName === '__construct' && parameters.some((parameter) => parameter.name === 'options')) constructorTakesOptions = true;
      methods.push({ name: methodName, static: member.isStatic === true, parameters, returns: typeText(member.type, member.nullable === true, resolve) });
    }
  }
  // The options are the keys of the constant the constructor merges them with: by this library's
  // convention the one whose name says it holds the defaults.
  const optionsConstant = [...privateArrays.keys()].find((constantName) => /DEFAULT|OPTION/i.test(constantName));
  const options = constructorTakesOptions && optionsConstant !== undefined ? privateArrays.get(optionsConstant) : undefined;
  const extendsNames = node.extends === null || node.extends === undefined ? [] : (Array.isArray(node.extends) ? node.extends : [node.extends]).map(resolve);
  return {
    name,
    kind: node.kind === 'interface' ? 'interface' : node.kind === 'trait' ? 'trait' : 'class',
    final: node.isFinal === true,
    extends: extendsNames,
    implements: ((node.implements as unknown[]) ?? []).map(resolve),
    constants,
    methods,
    ...(options === undefined ? {} : { options }),
    file,
  };
}

/** Reads the surface of a package from its files (path inside the package → text); only `.php` files are read. */
export function phpSurface(files: ReadonlyMap<string, string>): PhpSurface {
  const classes: PhpClass[] = [];
  for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!file.endsWith('.php')) continue;
    const program = engine.parseCode(text, file) as unknown as AstNode;
    const visit = (nodes: unknown[], namespace: string, uses: Map<string, string>): void => {
      for (const node of nodes) {
        if (!isNode(node)) continue;
        if (node.kind === 'namespace') {
          visit(node.children as unknown[], identifierName(node.name), new Map());
        } else if (node.kind === 'usegroup') {
          for (const item of (node.items as AstNode[]) ?? []) {
            const full = [identifierName(node.name), identifierName(item.name)].filter((part) => part !== '').join('\\').replace(/^\\/, '');
            const alias = identifierName(item.alias) || full.split('\\').at(-1) || full;
            uses.set(alias.toLowerCase(), full);
          }
        } else if (['class', 'interface', 'trait'].includes(node.kind ?? '') && node.isAnonymous !== true) {
          classes.push(readClass(node, file, resolver(namespace, uses)));
        }
      }
    };
    visit((program.children as unknown[]) ?? [], '', new Map());
  }
  return { classes: classes.sort((a, b) => a.name.localeCompare(b.name)) };
}
