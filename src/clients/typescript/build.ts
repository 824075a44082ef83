/**
 * Builds the TypeScript client package into a folder: the generated sources and the runtime (with
 * the project's one reading of `Retry-After`, src/lib/http/retry-after.ts) compiled by the project's
 * TypeScript twice, into ES modules (`dist/`) and into CommonJS (`dist/cjs/`), each with its own
 * declarations, then package.json, README.md and LICENSE. The folder is what `npm pack` packs;
 * nothing of it is committed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { contractLicense, licenseNotice } from '../shared/license.ts';
import { generateClientSources, typescriptClientPackageName } from './generate.ts';
import { typescriptClientNodeRange } from './node-lines.ts';
import { typescriptClientReadme } from './readme.ts';

/** Where the package folder is written inside the project (ignored by git). */
export const typescriptClientDirectory = '.generated/clients/typescript';

// Where the page, the tests and the manifest have always read them.
export { typescriptClientNodeLines, typescriptClientNodeRange } from './node-lines.ts';

/** Where the CommonJS build goes inside `dist/`, beside the ES modules, with a package.json of its own saying so. */
export const commonJsDirectory = 'cjs';

const runtimeDirectory = path.join(import.meta.dirname, 'runtime');
const retryAfterSource = path.join(import.meta.dirname, '../../lib/http/retry-after.ts');
/** How the runtime imports the reading of `Retry-After` in this repository, and how it does inside the package. */
const retryAfterImport = { inRepository: "'../../../lib/http/retry-after.ts'", inPackage: "'./retry-after.ts'" };

/**
 * The compiler's settings: ES modules for Node and Workers alike, declarations beside them, no Node
 * types. The release record of the package's surface (src/clients/surface/surfaces.ts) compiles
 * its declarations with these too.
 */
export const typescriptClientCompilerOptions: Readonly<ts.CompilerOptions> = {
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

/** The same sources as CommonJS, for `require()` on every Node the package claims (Node 20 before 20.19 cannot require an ES module). */
const commonJsOptions: ts.CompilerOptions = {
  ...typescriptClientCompilerOptions,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
};

export interface BuiltTypescriptClient {
  packageDirectory: string;
  packageName: string;
  version: string;
}

/**
 * The package's manifest: ES modules for `import` and CommonJS for `require`, each with the
 * declarations of its own format (a CommonJS caller type-checked against ES declarations is told
 * it cannot require the package), no dependency, Node 20 or newer, the contract's licence.
 */
export function typescriptClientManifest(version: string, license: string, repository?: string): Record<string, unknown> {
  const esm = { types: './dist/index.d.ts', default: './dist/index.js' };
  const cjs = { types: `./dist/${commonJsDirectory}/index.d.ts`, default: `./dist/${commonJsDirectory}/index.js` };
  return {
    name: typescriptClientPackageName,
    // The client is the contract made callable: its version is the version of the document it was generated from.
    version,
    description: 'A typed client of the Subscription Lifecycle Action Service, generated from its OpenAPI contract: one method per action, its errors, Retry-After and a courtesy pace. No dependencies; Node 20+ (import or require), Workers, browsers.',
    license,
    type: 'module',
    // For tools that read no `exports`: the CommonJS build, which every Node can load.
    main: cjs.default,
    types: cjs.types,
    exports: { '.': { import: esm, require: cjs }, './package.json': './package.json' },
    files: ['dist', 'README.md', 'LICENSE'],
    sideEffects: false,
    engines: { node: typescriptClientNodeRange },
    ...(repository === undefined ? {} : { repository: { type: 'git', url: repository } }),
  };
}

/** Where a file of the package's `src/` comes from in this repository, for its header. */
export type SourceOrigins = ReadonlyMap<string, string>;

/** The first line of every compiled file: what it was generated from, and that it is not edited by hand. */
export function generatedHeader(version: string, origin: string): string {
  return `// Generated from version ${version} of the contract by src/clients/typescript/build.ts, compiled from ${origin}. Do not edit: regenerate the package.`;
}

function compile(sourceDirectory: string, outDirectory: string, options: ts.CompilerOptions, header: (sourceFile: string) => string): void {
  const rootNames = readdirSync(sourceDirectory).filter((file) => file.endsWith('.ts')).map((file) => path.join(sourceDirectory, file));
  const program = ts.createProgram({ rootNames, options: { ...options, rootDir: sourceDirectory, outDir: outDirectory } });
  const writeFile: ts.WriteFileCallback = (fileName, text) => {
    mkdirSync(path.dirname(fileName), { recursive: true });
    // The compiler rewrites `.ts` to `.js` in the JavaScript only: the declarations get the same, for consumers of any TypeScript version.
    const rewritten = fileName.endsWith('.d.ts') ? text.replace(/(from\s+['"]\.\/[\w-]+)\.ts(['"])/g, '$1.js$2') : text;
    // Declarations lose the source's first comment, and the generated sources' own notice would come twice: every file gets the one header.
    const body = rewritten.replace(/^\/\/ Generated from version .*\n/, '');
    const sourceFile = `${path.basename(fileName).replace(/\.d\.ts$|\.js$/, '')}.ts`;
    writeFileSync(fileName, `${header(sourceFile)}\n${body}`);
  };
  const emitted = program.emit(undefined, writeFile);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) {
    const host: ts.FormatDiagnosticsHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => sourceDirectory, getNewLine: () => '\n' };
    throw new Error(`The generated client does not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}

/** Where each of the package's sources comes from: the runtime's files, the reading of `Retry-After`, and the generator. */
export function typescriptClientSourceOrigins(contract: ExecutableContract): SourceOrigins {
  const origins = new Map<string, string>();
  for (const file of readdirSync(runtimeDirectory).filter((name) => name.endsWith('.ts'))) origins.set(file, `src/clients/typescript/runtime/${file}`);
  origins.set('retry-after.ts', 'src/lib/http/retry-after.ts');
  for (const file of generateClientSources(contract).keys()) origins.set(file, `${file}, written from openapi/ by src/clients/typescript/generate.ts`);
  return origins;
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
    const origins = typescriptClientSourceOrigins(contract);
    const header = (sourceFile: string) => generatedHeader(version, origins.get(sourceFile) ?? sourceFile);
    const dist = path.join(packageDirectory, 'dist');
    compile(sourceDirectory, dist, typescriptClientCompilerOptions, header);
    compile(sourceDirectory, path.join(dist, commonJsDirectory), commonJsOptions, header);
    // Inside a `"type": "module"` package, this is what makes Node and TypeScript read dist/cjs/ as CommonJS.
    writeFileSync(path.join(dist, commonJsDirectory, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  } finally {
    rmSync(sourceDirectory, { recursive: true, force: true });
  }
  writeFileSync(path.join(packageDirectory, 'package.json'), `${JSON.stringify(typescriptClientManifest(version, contractLicense(contract).identifier, repository), null, 2)}\n`);
  writeFileSync(path.join(packageDirectory, 'README.md'), typescriptClientReadme(contract));
  writeFileSync(path.join(packageDirectory, 'LICENSE'), licenseNotice(contract, typescriptClientPackageName, version));
  return { packageDirectory, packageName: typescriptClientPackageName, version };
}
