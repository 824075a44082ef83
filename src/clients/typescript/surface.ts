/**
 * The public surface of the TypeScript client as a release records it (read by surface-reader.ts),
 * and how the client of the current contract would break a caller of the release's; the compiler's
 * own judgement of the two releases' declarations is surface-compiler.ts.
 */
import type { BreakReport, SurfaceBreak } from '../surface/surface-break.ts';

export interface TypescriptParameter {
  name: string;
  type: string;
  optional: boolean;
  rest?: boolean;
}

export interface TypescriptMember {
  kind: 'method' | 'property' | 'accessor';
  /** A property's or an accessor's type, or a method's return type. */
  type: string;
  optional: boolean;
  readonly?: boolean;
  /** A method's parameters; a method with overloads keeps its first signature's. */
  parameters?: TypescriptParameter[];
  /** A method generic over the actions or fields it is given, whose types grow with every release. */
  generic?: boolean;
}

export interface TypescriptExport {
  kind: 'class' | 'interface' | 'type' | 'value' | 'function';
  /** How many type parameters a class, an interface or a type alias takes, when it takes any. */
  typeParameters?: number;
  /** A value's or a function's type, a type alias's definition. */
  type?: string;
  /** The literal members of a union type alias (`"active"`), when it is one. */
  literals?: string[];
  /** A class's or an interface's public members; `new` is a class's constructor. */
  members?: Record<string, TypescriptMember>;
}

export interface TypescriptSurface {
  exports: Record<string, TypescriptExport>;
  /**
   * The package's declaration files as emitted (`index.d.ts` and what it imports), by name: the
   * compiler holds a later release's types to these (surface-compiler.ts).
   */
  declarations?: Record<string, string>;
}

function compareParameters(where: string, names: string[], before: TypescriptParameter[], after: TypescriptParameter[], report: BreakReport): void {
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

function compareMember(where: string, names: string[], before: TypescriptMember, after: TypescriptMember, input: boolean, report: BreakReport): void {
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

function compareExport(name: string, before: TypescriptExport, after: TypescriptExport, input: boolean, report: BreakReport): void {
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
