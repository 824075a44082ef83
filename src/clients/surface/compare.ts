/**
 * Holds a library's surface against the surface a release recorded, as a caller of that release
 * would: what the caller named must still be there, take what it passed, in the same order, and
 * give back what it read. A new class, method, exported name or optional parameter at the end is
 * no break; a new member of a result is none either, while a new required member of an input is.
 */
import type { PhpClass, PhpMethod, PhpSurface } from './php-surface.ts';
import type { PythonFunction, PythonName, PythonParameter, PythonSurface, PythonTypedDictKey } from './python-surface.ts';
import type { TypescriptExport, TypescriptMember, TypescriptParameter, TypescriptSurface } from './typescript-surface.ts';

/** One way a library of the current contract would break a caller of the release. */
export interface SurfaceBreak {
  language: 'PHP' | 'TypeScript' | 'Python';
  /** What breaks, in a sentence, naming the class, method or export. */
  message: string;
  /**
   * The names in the library's code that the break is about, the most specific first (a
   * parameter, then its method, then its class): the gate looks each up among the contract's names.
   */
  names: string[];
}

function shortName(name: string): string {
  return name.split('\\').at(-1) ?? name;
}

/** Every public method of a class, its own and those it inherits from a class of the package. */
function methodsWithInherited(surface: PhpSurface, phpClass: PhpClass, seen = new Set<string>()): Map<string, PhpMethod> {
  const methods = new Map<string, PhpMethod>();
  if (seen.has(phpClass.name)) return methods;
  seen.add(phpClass.name);
  for (const parentName of [...phpClass.extends, ...phpClass.implements]) {
    const parent = surface.classes.find((candidate) => candidate.name === parentName);
    if (parent !== undefined) for (const [name, method] of methodsWithInherited(surface, parent, seen)) methods.set(name, method);
  }
  for (const method of phpClass.methods) methods.set(method.name.toLowerCase(), method);
  return methods;
}

function constantsWithInherited(surface: PhpSurface, phpClass: PhpClass, seen = new Set<string>()): Set<string> {
  const constants = new Set(Object.keys(phpClass.constants));
  if (seen.has(phpClass.name)) return constants;
  seen.add(phpClass.name);
  for (const parentName of [...phpClass.extends, ...phpClass.implements]) {
    const parent = surface.classes.find((candidate) => candidate.name === parentName);
    if (parent !== undefined) for (const name of constantsWithInherited(surface, parent, seen)) constants.add(name);
  }
  return constants;
}

function ancestors(surface: PhpSurface, phpClass: PhpClass): Set<string> {
  const found = new Set<string>();
  const visit = (current: PhpClass): void => {
    for (const name of [...current.extends, ...current.implements]) {
      if (found.has(name)) continue;
      found.add(name);
      const parent = surface.classes.find((candidate) => candidate.name === name);
      if (parent !== undefined) visit(parent);
    }
  };
  visit(phpClass);
  return found;
}

function comparePhpMethod(className: string, before: PhpMethod, after: PhpMethod, report: (message: string, names: string[]) => void): void {
  const where = `${className}::${before.name}()`;
  const names = [before.name, className];
  before.parameters.forEach((parameter, index) => {
    const now = after.parameters[index];
    if (now === undefined) {
      report(`${where} no longer takes $${parameter.name} (parameter ${index + 1}): a call that passes it fails`, [parameter.name, ...names]);
      return;
    }
    if (now.name !== parameter.name) {
      const moved = after.parameters.findIndex((candidate) => candidate.name === parameter.name);
      const what = moved === -1 ? `renames its parameter ${index + 1} from $${parameter.name} to $${now.name}` : `takes $${now.name} where $${parameter.name} was (parameter ${index + 1}; $${parameter.name} is now parameter ${moved + 1})`;
      report(`${where} ${what}: a call that passes $${parameter.name} by position or by name reaches another parameter`, [now.name, parameter.name, ...names]);
      return;
    }
    if (now.type !== parameter.type) report(`${where} types $${parameter.name} as ${now.type || 'nothing'}, not ${parameter.type || 'nothing'}`, [parameter.name, ...names]);
    if (parameter.default !== undefined && now.default === undefined) report(`${where} now requires $${parameter.name}, which was optional`, [parameter.name, ...names]);
    else if (parameter.default !== undefined && now.default !== parameter.default) report(`${where} changes the default of $${parameter.name} from ${parameter.default} to ${now.default ?? 'none'}`, [parameter.name, ...names]);
    if (Boolean(now.variadic) !== Boolean(parameter.variadic)) report(`${where} changes whether $${parameter.name} takes any number of values`, [parameter.name, ...names]);
  });
  for (const added of after.parameters.slice(before.parameters.length)) {
    if (added.default === undefined && added.variadic !== true) report(`${where} takes a new required parameter $${added.name}: a call without it fails`, [added.name, ...names]);
  }
  if (before.returns !== after.returns) report(`${where} returns ${after.returns || 'an undeclared type'}, not ${before.returns || 'an undeclared type'}`, names);
  if (before.static !== after.static) report(`${where} is ${after.static ? 'now' : 'no longer'} static`, names);
}

/** How the PHP library of the current contract would break a caller of the release's. */
export function comparePhpSurfaces(release: PhpSurface, current: PhpSurface): SurfaceBreak[] {
  const breaks: SurfaceBreak[] = [];
  const report = (message: string, names: string[]): void => {
    breaks.push({ language: 'PHP', message, names });
  };
  for (const phpClass of current.classes) {
    const seen = new Set<string>();
    for (const method of phpClass.methods) {
      const key = method.name.toLowerCase();
      if (seen.has(key)) report(`${shortName(phpClass.name)} declares ${method.name}() twice: PHP refuses to load the class`, [method.name, shortName(phpClass.name)]);
      seen.add(key);
    }
  }
  for (const before of release.classes) {
    const className = shortName(before.name);
    const after = current.classes.find((candidate) => candidate.name === before.name);
    if (after === undefined) {
      report(`the ${before.kind} ${before.name} is gone: code that names it fails`, [className]);
      continue;
    }
    if (after.kind !== before.kind) report(`${before.name} is now a ${after.kind}, not a ${before.kind}`, [className]);
    if (after.final && !before.final) report(`${before.name} is now final: a class extending it fails`, [className]);
    const kept = ancestors(current, after);
    for (const ancestor of ancestors(release, before)) {
      if (!kept.has(ancestor)) report(`${before.name} no longer extends or implements ${ancestor}: a catch or type check of it misses`, [className]);
    }
    const constants = constantsWithInherited(current, after);
    for (const constant of Object.keys(before.constants)) {
      if (!constants.has(constant)) report(`${className}::${constant} is gone`, [constant, className]);
    }
    const methods = methodsWithInherited(current, after);
    for (const method of methodsWithInherited(release, before).values()) {
      const now = methods.get(method.name.toLowerCase());
      if (now === undefined) report(`${className}::${method.name}() is gone: a call to it fails`, [method.name, className]);
      else comparePhpMethod(className, method, now, report);
    }
    for (const option of before.options ?? []) {
      if (!(after.options ?? []).includes(option)) report(`${className} no longer accepts the option '${option}'`, [option, className]);
    }
  }
  return breaks;
}

function compareParameters(where: string, names: string[], before: TypescriptParameter[], after: TypescriptParameter[], report: (message: string, names: string[]) => void): void {
  before.forEach((parameter, index) => {
    const now = after[index];
    if (now === undefined) {
      report(`${where} no longer takes its parameter ${index + 1} (${parameter.name})`, [parameter.name, ...names]);
      return;
    }
    if (shapeOf(now.type) !== shapeOf(parameter.type)) report(`${where} takes ${now.type} as its parameter ${index + 1} (${now.name}), not ${parameter.type}`, [parameter.name, ...names]);
    if (!now.optional && parameter.optional) report(`${where} now requires its parameter ${index + 1} (${now.name})`, [parameter.name, ...names]);
  });
  for (const added of after.slice(before.length)) {
    if (!added.optional && added.rest !== true) report(`${where} takes a new required parameter ${added.name}`, [added.name, ...names]);
  }
}

/** The exported names a caller builds and passes in: the types of the parameters of every exported class and function, and of their members. */
export function inputTypes(surface: TypescriptSurface): Set<string> {
  const inputs = new Set<string>();
  const namesIn = (type: string): string[] => [...type.matchAll(/\b[A-Za-z_$][\w$]*\b/g)].map((match) => match[0]).filter((name) => name in surface.exports);
  const queue: string[] = [];
  for (const exported of Object.values(surface.exports)) {
    if (exported.kind !== 'class' && exported.kind !== 'function') continue;
    for (const member of Object.values(exported.members ?? {})) {
      for (const parameter of member.parameters ?? []) queue.push(...namesIn(parameter.type));
    }
  }
  while (queue.length > 0) {
    const name = queue.pop() ?? '';
    if (inputs.has(name)) continue;
    inputs.add(name);
    const exported = surface.exports[name];
    if (exported?.kind === 'interface') for (const member of Object.values(exported.members ?? {})) queue.push(...namesIn(member.type));
  }
  return inputs;
}

/** A literal type's widened form: the version a constant names changes with every release, its kind does not. */
function widened(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  if (/^"(?:[^"\\]|\\.)*"$/.test(type)) return 'string';
  if (/^-?\d+(?:\.\d+)?$/.test(type)) return 'number';
  return type;
}

/**
 * A type as printed, without its string literals: a union of the actions or statuses a release
 * knows grows with the contract, which the contract's own step judges (a new action is an
 * addition, a new status a break); what is left is the shape a caller depends on.
 */
function shapeOf(type: string): string {
  return type.replace(/"(?:[^"\\]|\\.)*" \| /g, '').replace(/ \| "(?:[^"\\]|\\.)*"/g, '');
}

function compareMember(where: string, names: string[], before: TypescriptMember, after: TypescriptMember, input: boolean, report: (message: string, names: string[]) => void): void {
  if (before.kind === 'method') {
    if (after.kind !== 'method') {
      report(`${where} is no longer a method`, names);
      return;
    }
    compareParameters(`${where}()`, names, before.parameters ?? [], after.parameters ?? [], report);
    if (shapeOf(after.type) !== shapeOf(before.type)) report(`${where}() returns ${after.type}, not ${before.type}`, names);
    return;
  }
  if (shapeOf(after.type) !== shapeOf(before.type)) report(`${where} is typed ${after.type}, not ${before.type}`, names);
  if (input && !after.optional && before.optional) report(`${where} is now required`, names);
  if (!input && after.optional && !before.optional) report(`${where} may now be missing`, names);
}

function compareExport(name: string, before: TypescriptExport, after: TypescriptExport, input: boolean, report: (message: string, names: string[]) => void): void {
  if (after.kind !== before.kind) {
    report(`the export ${name} is now a ${after.kind}, not a ${before.kind}`, [name]);
    return;
  }
  if (before.kind === 'type') {
    if (before.literals !== undefined) {
      const gone = before.literals.filter((literal) => !(after.literals ?? []).includes(literal));
      if (gone.length > 0) report(`the type ${name} no longer has ${gone.join(', ')}`, [name]);
      // A union that grows is left to the contract's own step: a new action is an addition (the
      // actions a release knows grow with it), a new value of a closed response enum is refused there.
    } else if (after.type !== before.type) {
      report(`the type ${name} is ${after.type}, not ${before.type}`, [name]);
    }
    return;
  }
  if (before.kind === 'value') {
    if (widened(after.type) !== widened(before.type)) report(`the export ${name} is typed ${after.type ?? ''}, not ${before.type ?? ''}`, [name]);
    return;
  }
  const members = after.members ?? {};
  for (const [memberName, member] of Object.entries(before.members ?? {})) {
    const where = memberName === 'new' ? `new ${name}` : memberName === 'call' && before.kind === 'function' ? name : `${name}.${memberName.replace(/^static /, '')}`;
    const now = members[memberName];
    if (now === undefined) {
      report(`${where} is gone`, [memberName, name]);
      continue;
    }
    compareMember(where, [memberName, name], member, now, input, report);
  }
  if (input && before.kind === 'interface') {
    for (const [memberName, member] of Object.entries(members)) {
      if (!(memberName in (before.members ?? {})) && !member.optional && member.kind !== 'method') report(`${name} gains the required member ${memberName}: a caller's object without it no longer fits`, [memberName, name]);
    }
  }
}

/** How the TypeScript client of the current contract would break a caller of the release's. */
export function compareTypescriptSurfaces(release: TypescriptSurface, current: TypescriptSurface): SurfaceBreak[] {
  const breaks: SurfaceBreak[] = [];
  const report = (message: string, names: string[]): void => {
    breaks.push({ language: 'TypeScript', message, names });
  };
  const inputs = inputTypes(release);
  for (const [name, before] of Object.entries(release.exports)) {
    const after = current.exports[name];
    if (after === undefined) {
      report(`the export ${name} is gone: an import of it fails`, [name]);
      continue;
    }
    compareExport(name, before, after, inputs.has(name), report);
  }
  return breaks;
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

function comparePythonFunction(where: string, names: string[], before: PythonFunction, after: PythonFunction, report: (message: string, names: string[]) => void): void {
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

function compareParameter(where: string, names: string[], before: PythonParameter, after: PythonParameter, report: (message: string, names: string[]) => void): void {
  if (!pythonTypeKept(before.type, after.type, 'input')) report(`${where} types ${before.name} as ${after.type || 'nothing'}, not ${before.type || 'nothing'}: a value the release took is refused`, [before.name, ...names]);
  if (before.default !== undefined && after.default === undefined) report(`${where} now requires ${before.name}, which was optional`, [before.name, ...names]);
  else if (before.default !== undefined && after.default !== before.default) report(`${where} changes the default of ${before.name} from ${before.default} to ${after.default ?? 'none'}`, [before.name, ...names]);
}

function compareTypedDict(name: string, before: Record<string, PythonTypedDictKey>, after: Record<string, PythonTypedDictKey>, input: boolean, report: (message: string, names: string[]) => void): void {
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

function comparePythonName(name: string, before: PythonName, after: PythonName, input: boolean, report: (message: string, names: string[]) => void): void {
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
