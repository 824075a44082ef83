/**
 * The public surface of the Python library as a release records it (read by surface-reader.ts), and
 * how the library of the current contract would break a caller of the release's.
 */
import type { BreakReport, SurfaceBreak } from '../surface/surface-break.ts';

export interface PythonParameter {
  name: string;
  /** How a caller may pass it: by position only, by position or by name, by name only, or as `*args` / `**kwargs`. */
  kind: 'positional-only' | 'positional' | 'keyword-only' | 'var-positional' | 'var-keyword';
  /** The annotation as written, or empty. */
  type: string;
  /** The default's source text, absent for a parameter a caller must pass. */
  default?: string;
}

export interface PythonFunction {
  parameters: PythonParameter[];
  /** The return annotation, or empty. */
  returns: string;
  static?: boolean;
  classmethod?: boolean;
}

export interface PythonTypedDictKey {
  type: string;
  required: boolean;
}

export type PythonName =
  | { kind: 'class'; ancestors: string[]; methods: Record<string, PythonFunction>; attributes: Record<string, string> }
  | { kind: 'typeddict'; keys: Record<string, PythonTypedDictKey> }
  | ({ kind: 'function' } & PythonFunction)
  | { kind: 'value' | 'alias'; type: string };

export interface PythonSurface {
  /** The import package's name. */
  package: string;
  names: Record<string, PythonName>;
}

/** The top-level alternatives of a Python annotation: `Optional[Union[int, str]]` → int, str, None; `Literal['a', 'b']` → Literal['a'], Literal['b']. */
export function pythonAlternatives(annotation: string): Set<string> {
  const found = new Set<string>();
  const visit = (type: string): void => {
    const text = type.trim();
    if (splitTopLevel(text, '|').length > 1) {
      for (const part of splitTopLevel(text, '|')) visit(part);
      return;
    }
    const generic = /^(?:typing\.)?(Optional|Union|Literal)\[(.*)\]$/s.exec(text);
    if (generic === null) {
      found.add(text === 'NoneType' ? 'None' : text);
      return;
    }
    const [, kind = '', inner = ''] = generic;
    const parts = splitTopLevel(inner);
    if (kind === 'Literal') for (const part of parts) found.add(part === 'None' ? 'None' : `Literal[${part}]`);
    else for (const part of parts) visit(part);
    if (kind === 'Optional') found.add('None');
  };
  // `int | None` (Python 3.10's spelling) is a union too.
  for (const part of splitTopLevel(annotation, '|')) visit(part);
  return found;
}

/** Splits at the separators outside brackets and quotes. */
function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const character of text) {
    if (quote !== '') {
      if (character === quote) quote = '';
    } else if (character === "'" || character === '"') {
      quote = character;
    } else if (character === '[' || character === '(') {
      depth += 1;
    } else if (character === ']' || character === ')') {
      depth -= 1;
    } else if (character === separator && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += character;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/**
 * Whether a caller's value of the release's type is still taken (`input`: every alternative of
 * `before` is one of `after`'s), or a value of today's type is still one the caller handles (an
 * answer: every alternative of `after` is one of `before`'s). An unannotated type takes anything.
 */
function pythonTypeKept(before: string, after: string, reading: 'input' | 'answer'): boolean {
  if (before === after) return true;
  if (reading === 'input' && (after === '' || after === 'Any')) return true;
  if (reading === 'answer' && (before === '' || before === 'Any')) return true;
  const [wider, narrower] = reading === 'input' ? [pythonAlternatives(after), pythonAlternatives(before)] : [pythonAlternatives(before), pythonAlternatives(after)];
  return [...narrower].every((alternative) => wider.has(alternative));
}

/** Names of the package a caller builds and passes in: those its functions' and methods' parameters are annotated with. */
function pythonInputNames(surface: PythonSurface): Set<string> {
  const inputs = new Set<string>();
  const functions: PythonFunction[] = [];
  for (const entry of Object.values(surface.names)) {
    if (entry.kind === 'function') functions.push(entry);
    if (entry.kind === 'class') functions.push(...Object.values(entry.methods));
  }
  for (const parameter of functions.flatMap((entry) => entry.parameters)) {
    for (const match of parameter.type.matchAll(/\b[A-Za-z_]\w*\b/g)) if (match[0] in surface.names) inputs.add(match[0]);
  }
  return inputs;
}

const positionalKinds = new Set<PythonParameter['kind']>(['positional-only', 'positional']);
const byNameKinds = new Set<PythonParameter['kind']>(['positional', 'keyword-only']);

function comparePythonFunction(where: string, names: string[], before: PythonFunction, after: PythonFunction, report: BreakReport): void {
  const positionalBefore = before.parameters.filter((parameter) => positionalKinds.has(parameter.kind));
  const positionalAfter = after.parameters.filter((parameter) => positionalKinds.has(parameter.kind));
  const byName = (name: string) => after.parameters.find((parameter) => parameter.name === name && byNameKinds.has(parameter.kind));
  positionalBefore.forEach((parameter, index) => {
    const now = positionalAfter[index];
    if (now === undefined) {
      if (after.parameters.some((candidate) => candidate.kind === 'var-positional')) return;
      const moved = byName(parameter.name);
      report(moved === undefined ? `${where} no longer takes ${parameter.name} (parameter ${index + 1}): a call that passes it fails` : `${where} takes ${parameter.name} by name only now, not as parameter ${index + 1}: a call that passes it by position fails`, [parameter.name, ...names]);
      return;
    }
    if (now.name !== parameter.name && parameter.kind === 'positional') {
      const moved = positionalAfter.findIndex((candidate) => candidate.name === parameter.name);
      const what = moved === -1 ? `renames its parameter ${index + 1} from ${parameter.name} to ${now.name}` : `takes ${now.name} where ${parameter.name} was (parameter ${index + 1}; ${parameter.name} is now parameter ${moved + 1})`;
      report(`${where} ${what}: a call that passes ${parameter.name} by position or by name reaches another parameter`, [now.name, parameter.name, ...names]);
      return;
    }
    if (parameter.kind === 'positional' && now.kind === 'positional-only') report(`${where} takes ${parameter.name} by position only now: a call that names it fails`, [parameter.name, ...names]);
    compareParameter(where, names, parameter, now, report);
  });
  for (const parameter of before.parameters.filter((entry) => entry.kind === 'keyword-only')) {
    const now = byName(parameter.name);
    if (now === undefined) {
      if (!after.parameters.some((candidate) => candidate.kind === 'var-keyword')) report(`${where} no longer takes the keyword ${parameter.name}: a call that passes it fails`, [parameter.name, ...names]);
      continue;
    }
    compareParameter(where, names, parameter, now, report);
  }
  for (const kind of ['var-positional', 'var-keyword'] as const) {
    const had = before.parameters.find((parameter) => parameter.kind === kind);
    if (had !== undefined && !after.parameters.some((parameter) => parameter.kind === kind)) report(`${where} no longer takes ${kind === 'var-positional' ? '*' : '**'}${had.name}: a call that passes more than it names fails`, [had.name, ...names]);
  }
  const known = new Set(before.parameters.map((parameter) => parameter.name));
  for (const added of after.parameters) {
    if (known.has(added.name) || added.default !== undefined || added.kind === 'var-positional' || added.kind === 'var-keyword') continue;
    report(`${where} takes a new required parameter ${added.name}: a call without it fails`, [added.name, ...names]);
  }
  if (!pythonTypeKept(before.returns, after.returns, 'answer')) report(`${where} returns ${after.returns || 'an undeclared type'}, not ${before.returns || 'an undeclared type'}`, names);
  if (Boolean(before.static) !== Boolean(after.static) || Boolean(before.classmethod) !== Boolean(after.classmethod)) report(`${where} changes whether it is a static or class method`, names);
}

function compareParameter(where: string, names: string[], before: PythonParameter, after: PythonParameter, report: BreakReport): void {
  if (!pythonTypeKept(before.type, after.type, 'input')) report(`${where} types ${before.name} as ${after.type || 'nothing'}, not ${before.type || 'nothing'}: a value the release took is refused`, [before.name, ...names]);
  if (before.default !== undefined && after.default === undefined) report(`${where} now requires ${before.name}, which was optional`, [before.name, ...names]);
  else if (before.default !== undefined && after.default !== before.default) report(`${where} changes the default of ${before.name} from ${before.default} to ${after.default ?? 'none'}`, [before.name, ...names]);
}

function compareTypedDict(name: string, before: Record<string, PythonTypedDictKey>, after: Record<string, PythonTypedDictKey>, input: boolean, report: BreakReport): void {
  for (const [key, was] of Object.entries(before)) {
    const now = after[key];
    if (now === undefined) {
      report(input ? `${name} no longer has the key ${key}: a caller's dictionary with it no longer fits` : `${name} no longer has the key ${key}: a caller reading it fails`, [key, name]);
      continue;
    }
    if (input && now.required && !was.required) report(`${name} now requires the key ${key}, which was optional: a caller's dictionary without it no longer fits`, [key, name]);
    if (!input && was.required && !now.required) report(`${name} no longer always has the key ${key}: a caller reading it may fail`, [key, name]);
    if (!pythonTypeKept(was.type, now.type, input ? 'input' : 'answer')) report(`${name}'s key ${key} is typed ${now.type}, not ${was.type}`, [key, name]);
  }
  if (input) {
    for (const [key, now] of Object.entries(after)) {
      if (!(key in before) && now.required) report(`${name} gains the required key ${key}: a caller's dictionary without it no longer fits`, [key, name]);
    }
  }
}

function comparePythonName(name: string, before: PythonName, after: PythonName, input: boolean, report: BreakReport): void {
  if (after.kind !== before.kind) {
    report(`${name} is now a ${after.kind}, not a ${before.kind}`, [name]);
    return;
  }
  if (before.kind === 'typeddict' && after.kind === 'typeddict') compareTypedDict(name, before.keys, after.keys, input, report);
  else if (before.kind === 'function' && after.kind === 'function') comparePythonFunction(`${name}()`, [name], before, after, report);
  else if ((before.kind === 'value' || before.kind === 'alias') && (after.kind === 'value' || after.kind === 'alias')) {
    if (before.type !== after.type) report(`${name} is typed ${after.type || 'nothing'}, not ${before.type || 'nothing'}`, [name]);
  } else if (before.kind === 'class' && after.kind === 'class') {
    for (const ancestor of before.ancestors) {
      if (!after.ancestors.includes(ancestor)) report(`${name} no longer derives from ${ancestor}: an except clause or isinstance() of it misses`, [name]);
    }
    for (const [methodName, method] of Object.entries(before.methods)) {
      const now = after.methods[methodName];
      const where = methodName === '__init__' ? `${name}()` : `${name}.${methodName}()`;
      if (now === undefined) report(`${where} is gone: a call to it fails`, [methodName, name]);
      else comparePythonFunction(where, [methodName, name], method, now, report);
    }
    for (const [attribute, type] of Object.entries(before.attributes)) {
      const now = after.attributes[attribute];
      if (now === undefined) report(`${name}.${attribute} is gone: a caller reading it fails`, [attribute, name]);
      else if (!pythonTypeKept(type, now, 'answer')) report(`${name}.${attribute} is typed ${now || 'nothing'}, not ${type || 'nothing'}`, [attribute, name]);
    }
  }
}

/** How the Python library of the current contract would break a caller of the release's. */
export function comparePythonSurfaces(release: PythonSurface, current: PythonSurface): SurfaceBreak[] {
  const breaks: SurfaceBreak[] = [];
  const report = (message: string, names: string[]): void => {
    breaks.push({ language: 'Python', message, names });
  };
  if (current.package !== release.package) report(`the package is ${current.package}, not ${release.package}: an import of it fails`, [release.package]);
  const inputs = pythonInputNames(release);
  for (const [name, before] of Object.entries(release.names)) {
    const after = current.names[name];
    if (after === undefined) report(`${release.package}.${name} is gone: an import of it fails`, [name]);
    else comparePythonName(name, before, after, inputs.has(name), report);
  }
  return breaks;
}
