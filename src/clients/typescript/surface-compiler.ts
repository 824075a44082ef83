/**
 * The TypeScript compiler's own judgement of a new release of the client against the last one: a
 * check file, generated from the release's surface, imports both releases' declarations and
 * assigns, for every export the release had, the release's input types to the new ones (what a
 * caller built still fits) and the new client, classes, results and functions to the release's
 * (what a caller reads or holds still fits). Every error the compiler reports in it is a break,
 * named by the export whose assignment fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { SurfaceBreak } from '../surface/surface-break.ts';
import { inputTypes, type TypescriptSurface } from './surface.ts';

interface Assignment {
  exportName: string;
  /** The statements that assign one release's type to the other's. */
  code: string;
  /** What a failure means, in a caller's words. */
  meaning: string;
}

function assignments(release: TypescriptSurface, current: TypescriptSurface): Assignment[] {
  const inputs = inputTypes(release);
  const list: Assignment[] = [];
  for (const [name, exported] of Object.entries(release.exports)) {
    const now = current.exports[name];
    // A missing export, a changed kind or a generic type is the surface comparison's to judge.
    if (now === undefined || now.kind !== exported.kind || (exported.typeParameters ?? 0) > 0 || (now.typeParameters ?? 0) > 0) continue;
    const variable = `value_${name}`;
    // A union of the actions or statuses a release knows grows with the contract, which judges it.
    if (exported.literals !== undefined) continue;
    if ((exported.kind === 'interface' || exported.kind === 'type') && inputs.has(name)) {
      list.push({ exportName: name, code: `declare const ${variable}: Release.${name};\nexport const kept_${name}: Current.${name} = ${variable};`, meaning: `a value a caller built as ${name} no longer fits` });
    } else if (exported.kind === 'interface' || exported.kind === 'type') {
      list.push({ exportName: name, code: `declare const ${variable}: Current.${name};\nexport const kept_${name}: Release.${name} = ${variable};`, meaning: `what a caller reads as ${name} no longer fits its code` });
    } else if (exported.kind === 'class') {
      // A class with #private members is nominal: two releases' classes are compared by what a caller can reach
      // (its public members) and by what `new` takes.
      // A method generic over the actions (`action(name, fields)`) grows with every new action; the
      // surface comparison holds its parameters.
      const generic = Object.entries(exported.members ?? {}).filter(([, member]) => member.generic === true).map(([memberName]) => JSON.stringify(memberName));
      const omitted = generic.length === 0 ? 'never' : generic.join(' | ');
      list.push({
        exportName: name,
        code: [
          `declare const ${variable}: Omit<Current.${name}, ${omitted}>;`,
          `export const kept_${name}: Omit<Release.${name}, ${omitted}> = ${variable};`,
          `declare const arguments_${name}: ConstructorParameters<typeof Release.${name}>;`,
          `export const made_${name}: ConstructorParameters<typeof Current.${name}> = arguments_${name};`,
        ].join('\n'),
        meaning: `code written against ${name} no longer compiles`,
      });
    } else if (exported.kind === 'function') {
      list.push({ exportName: name, code: `export const kept_${name}: typeof Release.${name} = Current.${name};`, meaning: `a call of ${name} no longer compiles` });
    }
  }
  return list;
}

function writeDeclarations(directory: string, declarations: Record<string, string>): void {
  mkdirSync(directory, { recursive: true });
  for (const [file, text] of Object.entries(declarations)) writeFileSync(path.join(directory, path.basename(file)), text);
}

/** The breaks the compiler finds; none when either release lacks its declarations. */
export function typescriptCompilerBreaks(release: TypescriptSurface, current: TypescriptSurface): SurfaceBreak[] {
  if (release.declarations === undefined || current.declarations === undefined) return [];
  const checks = assignments(release, current);
  if (checks.length === 0) return [];
  const directory = mkdtempSync(path.join(tmpdir(), 'client-compatibility-'));
  try {
    writeDeclarations(path.join(directory, 'release'), release.declarations);
    writeDeclarations(path.join(directory, 'current'), current.declarations);
    const lines = ["import * as Release from './release/index.js';", "import * as Current from './current/index.js';"];
    const owners: (Assignment | undefined)[] = [undefined, undefined];
    for (const check of checks) {
      for (const line of check.code.split('\n')) {
        lines.push(line);
        owners.push(check);
      }
    }
    const checkFile = path.join(directory, 'check.ts');
    writeFileSync(checkFile, `${lines.join('\n')}\n`);
    const program = ts.createProgram({
      rootNames: [checkFile],
      options: { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], skipLibCheck: true, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 },
    });
    const source = program.getSourceFile(checkFile);
    const breaks: SurfaceBreak[] = [];
    const seen = new Set<string>();
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = diagnostic.file === undefined || diagnostic.start === undefined ? -1 : diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
      const owner = owners[line];
      const why = ts
        .flattenDiagnosticMessageText(diagnostic.messageText, '\n')
        .split('\n')
        .slice(0, 3)
        .map((text) => text.trim().replace(/import\("[^"]*\/(release|current)\/[^"]*"\)\./g, '$1 '))
        .join(' ');
      if (owner === undefined) {
        breaks.push({ language: 'TypeScript', message: `the compiler cannot hold the two releases' declarations together: ${why}`, names: [] });
        continue;
      }
      if (seen.has(owner.exportName)) continue;
      seen.add(owner.exportName);
      const member = /property '([^']+)'/i.exec(why)?.[1];
      breaks.push({ language: 'TypeScript', message: `${owner.meaning}, the compiler says: ${why}`, names: member === undefined ? [owner.exportName] : [member, owner.exportName] });
    }
    return breaks;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
