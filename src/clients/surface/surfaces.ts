/**
 * The libraries' public surfaces for one contract, and the record of them each release keeps
 * beside its snapshot (`openapi/releases/<version>.clients.json`). The libraries are generated
 * exactly as they are packed (the PHP package's files, the TypeScript package's declarations, the
 * Python package's files) and read as a caller sees them; generating the TypeScript one compiles it, so a surface is cached in
 * `.generated/client-surfaces/` by the hash of the document and of the generators' sources.
 */
import { globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OpenApiDocument } from '../../lib/contract/document.ts';
import { checkReferenceModel } from '../../lib/contract/actions.ts';
import { contractErrorListing, collectProblems } from '../../lib/contract/problems.ts';
import { executableContractOf, noSchemaValidator, type ExecutableContract } from '../../lib/contract/serving-contract.ts';
import { phpPackageFiles } from '../php/generate.ts';
import ts from 'typescript';
import { typescriptClientCompilerOptions, typescriptClientSources } from '../typescript/build.ts';
import { pythonImportName, writePythonPackage } from '../python/generate.ts';
import { phpSurface } from '../php/surface-reader.ts';
import { pythonSurface } from '../python/surface-reader.ts';
import { typescriptSurface } from '../typescript/surface-reader.ts';
import { cachedResult, clientSurfaceRecordFile, generatorSourcesHash, hashOf, type ClientSurfaceRecord, type ClientSurfaces } from './surface-cache.ts';

export * from './surface-cache.ts';

/**
 * The contract as the generators read it, from a document the model may today hold to more than
 * it did when it was released: a release's snapshot predates some of the model's checks (1.0.0
 * did not yet state each error body's status as a constant, say). What the libraries are made of
 * is read all the same; only a model that cannot be read at all is refused.
 */
export function generatorContract(document: OpenApiDocument): ExecutableContract {
  const { value: model, problems } = collectProblems((report) => checkReferenceModel(document, report));
  if (model === undefined) throw problems.length > 0 ? contractErrorListing(problems) : new Error('the reference model cannot be read');
  return executableContractOf(document, model, noSchemaValidator);
}

/** Generates the libraries from a document and reads their surfaces, without a cache. */
export function generateClientSurfaces(document: OpenApiDocument): ClientSurfaces {
  const contract = generatorContract(document);
  const php = phpSurface(phpPackageFiles(contract));
  const directory = mkdtempSync(path.join(tmpdir(), 'client-surface-'));
  try {
    // The Python package's files as its wheel holds them, read by Python's own parser.
    writePythonPackage(contract, path.join(directory, 'python'));
    const python = pythonSurface(path.join(directory, 'python', pythonImportName));
    const entry = writeTypescriptDeclarations(contract, directory);
    const declarations = Object.fromEntries(
      globSync('*.d.ts', { cwd: path.dirname(entry) })
        .sort()
        .map((file) => [file, readFileSync(path.join(path.dirname(entry), file), 'utf8')]),
    );
    return { php, typescript: { ...typescriptSurface(entry), declarations }, python };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The TypeScript package's declarations, as its build emits them beside the JavaScript
 * (src/clients/typescript/build.ts), without the JavaScript or the README, which no caller's
 * types depend on. Returns the entry, `dist/index.d.ts`.
 */
function writeTypescriptDeclarations(contract: ExecutableContract, directory: string): string {
  const sourceDirectory = path.join(directory, 'src');
  const outDirectory = path.join(directory, 'dist');
  mkdirSync(sourceDirectory, { recursive: true });
  const rootNames = [...typescriptClientSources(contract)].map(([file, text]) => {
    writeFileSync(path.join(sourceDirectory, file), text);
    return path.join(sourceDirectory, file);
  });
  const program = ts.createProgram({
    rootNames,
    options: {
      ...typescriptClientCompilerOptions,
      emitDeclarationOnly: true,
      // The record keeps the declarations; their doc comments are the pages' business, not a caller's types.
      removeComments: true,
      rootDir: sourceDirectory,
      outDir: outDirectory,
    },
  });
  program.emit(undefined, (fileName, text) => {
    mkdirSync(path.dirname(fileName), { recursive: true });
    writeFileSync(fileName, text.replace(/(from\s+['"]\.\/[\w-]+)\.ts(['"])/g, '$1.js$2'));
  });
  return path.join(outDirectory, 'index.d.ts');
}

/** The surfaces of a document's libraries, from the cache when the document and the generators are unchanged. */
export function clientSurfacesOf(document: OpenApiDocument): ClientSurfaces {
  return cachedResult(hashOf(JSON.stringify(document), generatorSourcesHash()), () => generateClientSurfaces(document));
}

/** Writes the record of a release from its snapshot's libraries; returns the file written, relative to the project. */
export function writeClientSurfaceRecord(projectDirectory: string, version: string, snapshot: OpenApiDocument, snapshotFile: string): string {
  const record: ClientSurfaceRecord = { version, generatedFrom: snapshotFile, ...clientSurfacesOf(snapshot) };
  const file = clientSurfaceRecordFile(version);
  writeFileSync(path.join(projectDirectory, file), `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

