/**
 * Builds the TypeScript client package into a folder: the generated sources and the runtime (with
 * the project's one reading of `Retry-After`, src/lib/http/retry-after.ts) compiled by the project's
 * TypeScript into ES modules with their declarations, then package.json and README.md. The folder
 * is what `npm pack` packs; nothing of it is committed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { generateClientSources, typescriptClientPackageName } from './generate.ts';
import { typescriptClientReadme } from './readme.ts';

/** Where the package folder is written inside the project (ignored by git). */
export const typescriptClientDirectory = '.generated/clients/typescript';

/** The oldest Node the package runs on: the first with `fetch`, `AbortSignal.timeout` and `structuredClone` unflagged, still maintained when the package was first made. */
export const typescriptClientNodeRange = '>=20';

const runtimeDirectory = path.join(import.meta.dirname, 'runtime');
const retryAfterSource = path.join(import.meta.dirname, '../../lib/http/retry-after.ts');
/** How the runtime imports the reading of `Retry-After` in this repository, and how it does inside the package. */
const retryAfterImport = { inRepository: "'../../../lib/http/retry-after.ts'", inPackage: "'./retry-after.ts'" };

/** The compiler's settings: modules for Node and Workers alike, declarations beside them, no Node types. */
const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  declaration: true,
  rewriteRelativeImportExtensions: true,
  skipLibCheck: true,
  newLine: ts.NewLineKind.LineFeed,
};

export interface BuiltTypescriptClient {
  packageDirectory: string;
  packageName: string;
  version: string;
}

/** The package's manifest: ES modules with their types, no dependency, Node 20 or newer. */
export function typescriptClientManifest(version: string, repository?: string): Record<string, unknown> {
  return {
    name: typescriptClientPackageName,
    // The client is the contract made callable: its version is the version of the document it was generated from.
    version,
    description: 'A typed client of the Subscription Lifecycle Action Service, generated from its OpenAPI contract: one method per action, its errors, Retry-After and a courtesy pace. No dependencies; Node 20+, Workers, browsers.',
    type: 'module',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    files: ['dist', 'README.md'],
    sideEffects: false,
    engines: { node: typescriptClientNodeRange },
    ...(repository === undefined ? {} : { repository: { type: 'git', url: repository } }),
  };
}

function compile(sourceDirectory: string, outDirectory: string): void {
  const rootNames = readdirSync(sourceDirectory).filter((file) => file.endsWith('.ts')).map((file) => path.join(sourceDirectory, file));
  const program = ts.createProgram({ rootNames, options: { ...compilerOptions, rootDir: sourceDirectory, outDir: outDirectory } });
  // The compiler rewrites `.ts` to `.js` in the JavaScript only: the declarations get the same, for consumers of any TypeScript version.
  const writeFile: ts.WriteFileCallback = (fileName, text) => {
    mkdirSync(path.dirname(fileName), { recursive: true });
    writeFileSync(fileName, fileName.endsWith('.d.ts') ? text.replace(/(from\s+['"]\.\/[\w-]+)\.ts(['"])/g, '$1.js$2') : text);
  };
  const emitted = program.emit(undefined, writeFile);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) {
    const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => sourceDirectory, getNewLine: () => '\n' };
    throw new Error(`The generated client does not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}

/** The package's TypeScript sources, by file name: the runtime as written here, the reading of `Retry-After`, and what the model generates. */
export function typescriptClientSources(contract: ExecutableContract): Map<string, string> {
  const sources = new Map<string, string>();
  for (const file of readdirSync(runtimeDirectory).filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(path.join(runtimeDirectory, file), 'utf8');
    if (text.includes(retryAfterImport.inRepository)) sources.set(file, text.replace(retryAfterImport.inRepository, retryAfterImport.inPackage));
    else if (text.includes('/lib/')) throw new Error(`src/clients/typescript/runtime/${file} imports from the repository beyond the reading of Retry-After; the package could not carry it.`);
    else sources.set(file, text);
  }
  sources.set('retry-after.ts', readFileSync(retryAfterSource, 'utf8'));
  for (const [file, text] of generateClientSources(contract)) sources.set(file, text);
  return sources;
}

/** Writes the package folder for a contract (the project's, or a copy a test changed). */
export function buildTypescriptClient(contract: ExecutableContract, packageDirectory: string, repository?: string): BuiltTypescriptClient {
  const version = contract.model.documentVersion;
  const sourceDirectory = mkdtempSync(path.join(tmpdir(), 'typescript-client-src-'));
  try {
    for (const [file, text] of typescriptClientSources(contract)) writeFileSync(path.join(sourceDirectory, file), text);
    rmSync(packageDirectory, { recursive: true, force: true });
    mkdirSync(packageDirectory, { recursive: true });
    compile(sourceDirectory, path.join(packageDirectory, 'dist'));
  } finally {
    rmSync(sourceDirectory, { recursive: true, force: true });
  }
  writeFileSync(path.join(packageDirectory, 'package.json'), `${JSON.stringify(typescriptClientManifest(version, repository), null, 2)}\n`);
  writeFileSync(path.join(packageDirectory, 'README.md'), typescriptClientReadme(contract));
  return { packageDirectory, packageName: typescriptClientPackageName, version };
}
