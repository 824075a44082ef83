/**
 * Holds a library's surface against the surface a release recorded, as a caller of that release
 * would: what the caller named must still be there, take what it passed, in the same order, and
 * give back what it read. A new class, method, exported name or optional parameter at the end is
 * no break; a new member of a result is none either, while a new required member of an input is.
 */
import type { PhpClass, PhpMethod, PhpSurface } from './php-surface.ts';
import type { TypescriptExport, TypescriptMember, TypescriptParameter, TypescriptSurface } from './typescript-surface.ts';

/** One way a library of the current contract would break a caller of the release. */
export interface SurfaceBreak {
  language: 'PHP' | 'TypeScript';
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
