/**
 * The public surface of the PHP library as a release records it (read by surface-reader.ts), and how
 * the library of the current contract would break a caller of the release's.
 */
import type { BreakReport, SurfaceBreak } from '../surface/surface-break.ts';

export interface PhpParameter {
  name: string;
  /** The declared type as written (`?string`, `int`, `array`), or empty when none is declared. */
  type: string;
  /** The default's source text (`null`, `[]`), absent for a parameter a caller must pass. */
  default?: string;
  variadic?: boolean;
}

export interface PhpMethod {
  name: string;
  static: boolean;
  parameters: PhpParameter[];
  /** The declared return type, or empty. */
  returns: string;
}

export interface PhpClass {
  /** The fully qualified name, without the leading backslash. */
  name: string;
  kind: 'class' | 'interface' | 'trait';
  final: boolean;
  extends: string[];
  implements: string[];
  /** Public constants and their values' source text. */
  constants: Record<string, string>;
  methods: PhpMethod[];
  /** The option keys the constructor accepts, read from the constant that holds their defaults. */
  options?: string[];
  /** The file inside the package the class is written in. */
  file: string;
}

export interface PhpSurface {
  classes: PhpClass[];
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

function comparePhpMethod(className: string, before: PhpMethod, after: PhpMethod, report: BreakReport): void {
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
