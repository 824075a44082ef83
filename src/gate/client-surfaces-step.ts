/**
 * The gate's step for the client libraries (PHP, TypeScript, Python): version 1's promise reaches
 * them too. Each is generated from the contract as it stands and its public surface held against
 * the record of the latest release (`openapi/releases/<version>.clients.json`,
 * src/clients/surface/). Reading the Python one needs `python3`; without it the step says so. A change
 * the contract's own compatibility step lets pass can still break a library's caller, by a
 * method's parameters moving or a new action's method taking an existing one's name; each such
 * break is refused at the line of the contract that causes it. When the release's own contract,
 * generated today, breaks the record the same way, the cause is a generator, and the step says so.
 */
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UnnamableActionError } from '../clients/shared/method-names.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { noSchemaValidator, readExecutableContractWith } from '../lib/contract/serving-contract.ts';
import { latestRelease, loadSnapshot, readReleases, ReleaseError, snapshotFile, type Release } from '../lib/releases/releases.ts';
import { compareClientSurfaces, languagesMissingFrom, surfaceLanguages, type SurfaceBreak } from '../clients/surface/compare.ts';
import { cachedResult, clientSurfaceRecordFile, generatorSourcesHash, hashOf, readCached, readClientSurfaceRecord, recordCommand, type ClientSurfaceRecord, type ClientSurfaces } from '../clients/surface/surface-cache.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator, type SourceLocator } from './source-files.ts';

const surfaceRule = 'client libraries: rule 9.2, 9.3';

/** A name as code and contract both spell it, for matching one with the other: `orderId`, `order_id` → `orderid`. */
function comparable(name: string): string {
  return name.replace(/(Exception|Error|Fields)$/, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface ContractNames {
  actions: Map<string, string>;
  /** `action/field` → the field's pointer. */
  fields: Map<string, string>;
  /** Any field of a request or a response → its pointer, for a name no action claims. */
  anyField: Map<string, string>;
  responses: Map<string, string>;
}

/** Every name of the contract a library spells in code, with where the contract writes it. */
function contractNames(document: OpenApiDocument): ContractNames {
  const names: ContractNames = { actions: new Map(), fields: new Map(), anyField: new Map(), responses: new Map() };
  let model;
  try {
    model = readExecutableContractWith(document, noSchemaValidator).model;
  } catch {
    return names;
  }
  for (const action of model.actions) {
    names.actions.set(comparable(action.identifier), action.pointer);
    for (const field of action.fields) {
      names.fields.set(`${comparable(action.identifier)}/${comparable(field.name)}`, field.pointer);
      if (!names.anyField.has(comparable(field.name))) names.anyField.set(comparable(field.name), field.pointer);
    }
  }
  for (const field of model.resultFields) if (!names.anyField.has(comparable(field.name))) names.anyField.set(comparable(field.name), field.pointer);
  for (const response of model.responses) {
    const phrase = STATUS_CODES[Number(response.status)];
    if (phrase !== undefined) names.responses.set(comparable(phrase), response.listedAt ?? response.pointer);
  }
  return names;
}

/** The contract's pointer a break's names lead to: a field of an action first, then an action, a response or a field. */
function causeOf(names: readonly string[], contract: ContractNames): string | undefined {
  for (const [index, name] of names.entries()) {
    for (const owner of names.slice(index + 1)) {
      const field = contract.fields.get(`${comparable(owner)}/${comparable(name)}`);
      if (field !== undefined) return field;
    }
  }
  for (const name of names) {
    const key = comparable(name);
    const found = contract.actions.get(key) ?? contract.responses.get(key) ?? contract.fields.get(key) ?? contract.anyField.get(key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every break: the surfaces compared, and the TypeScript compiler's judgement of the two releases'
 * declarations (cached by their hash and the checker's sources), which names no export the comparison has named already.
 */
/**
 * Node's own `import()`, out of the bundlers' reach: under `astro dev` the gate runs in modules
 * Vite loaded for the configuration, whose module runner is closed by the time the contract
 * changes (a bundled `import()` then fails with "Vite module runner has been closed"), and the
 * product-information server's bundle would otherwise carry the generators and TypeScript
 * whether or not the cache answers.
 */
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** A module of src/clients/, by its path there. */
function clientsModule<Module>(file: string): Promise<Module> {
  return nativeImport(pathToFileURL(path.join(import.meta.dirname, '../clients', file)).href) as Promise<Module>;
}

/** The folder of a language's generator, where a break no line of the contract causes is laid. */
function generatorFolder(language: string): string {
  return surfaceLanguages.find((entry) => entry.language === language)?.folder ?? 'src/clients/';
}

/** Python missing from the machine, by its name: the reader may be another load of the class. */
function pythonUnavailable(error: unknown): error is Error {
  return error instanceof Error && error.name === 'PythonUnavailableError';
}

/** A generator's refusal of an action it cannot name, by its shape: the generators may be another load of the class. */
function unnamableAction(error: unknown): error is UnnamableActionError {
  return error instanceof Error && error.name === 'UnnamableActionError' && typeof (error as { pointer?: unknown }).pointer === 'string';
}

async function breaksBetween(record: ClientSurfaceRecord, current: ClientSurfaces): Promise<SurfaceBreak[]> {
  const compared = compareClientSurfaces(record, current);
  const named = new Set(compared.filter((entry) => entry.language === 'TypeScript').map((entry) => entry.names.at(-1)));
  const key = hashOf(JSON.stringify(record.typescript.declarations ?? {}), JSON.stringify(current.typescript.declarations ?? {}), generatorSourcesHash(), 'compiler');
  let judged = readCached<SurfaceBreak[]>(key);
  if (judged === undefined) {
    const { typescriptCompilerBreaks } = await clientsModule<typeof import('../clients/typescript/surface-compiler.ts')>('typescript/surface-compiler.ts');
    judged = cachedResult(key, () => typescriptCompilerBreaks(record.typescript, current.typescript));
  }
  return [...compared, ...judged.filter((entry) => !named.has(entry.names.at(-1)))];
}

/**
 * The surfaces of a document's libraries: from the cache when the document and the generators are
 * unchanged, without loading them; else generated (src/clients/surface/surfaces.ts).
 */
async function surfacesOf(document: OpenApiDocument): Promise<ClientSurfaces> {
  const cached = readCached<ClientSurfaces>(hashOf(JSON.stringify(document), generatorSourcesHash()));
  if (cached !== undefined) return cached;
  const { clientSurfacesOf } = await clientsModule<typeof import('../clients/surface/surfaces.ts')>('surface/surfaces.ts');
  return clientSurfacesOf(document);
}

function problemFor(entry: SurfaceBreak, release: Release, locate: SourceLocator, contract: ContractNames, root: string, fromGenerator: boolean): GateProblem {
  const consequence = `The ${entry.language} library of release ${release.version} is called this way; version 1 keeps it working.`;
  if (fromGenerator) {
    return {
      file: generatorFolder(entry.language),
      message: `breaks a caller of the ${entry.language} library of release ${release.version}: ${entry.message}. No line of the contract causes it: release ${release.version}'s own contract, generated today, breaks the same way, so the generator changed. Keep what release ${release.version} named, or add beside it.`,
      rule: surfaceRule,
      cause: entry.message,
    };
  }
  const pointer = causeOf(entry.names, contract);
  const place = pointer === undefined ? { file: root } : locate(pointer);
  return { ...place, message: `breaks a caller of the ${entry.language} library of release ${release.version}: ${entry.message}. ${consequence}`, rule: surfaceRule, cause: entry.message };
}

/** Holds every library of the bundled contract against the latest release's record. */
export async function checkClientSurfaces(context: GateContext): Promise<GateProblem[]> {
  const { projectDirectory, root, document } = context;
  let release: Release | undefined;
  try {
    release = latestRelease(readReleases(projectDirectory));
  } catch (error) {
    // The compatibility step names a broken release index.
    if (error instanceof ReleaseError) return [];
    throw error;
  }
  if (release === undefined) return [];
  const record = readClientSurfaceRecord(projectDirectory, release.version);
  if (record === undefined) {
    return [{ file: clientSurfaceRecordFile(release.version), message: `Release ${release.version} has no record of its client libraries' surfaces, so a change that breaks their callers cannot be seen. Write it with \`${recordCommand(release.version)}\`.`, rule: surfaceRule }];
  }
  const missing = languagesMissingFrom(record);
  if (missing.length > 0) {
    return [{ file: clientSurfaceRecordFile(release.version), message: `Release ${release.version}'s record of its client libraries' surfaces has no ${missing.join(', ')} library, so a change that breaks its callers cannot be seen. Write it again with \`${recordCommand(release.version)}\`.`, rule: surfaceRule }];
  }
  let current: ClientSurfaces;
  try {
    readExecutableContractWith(document, noSchemaValidator);
  } catch {
    // The reference model step names whatever keeps the model from being read.
    return [];
  }
  try {
    current = await surfacesOf(document);
  } catch (error) {
    if (pythonUnavailable(error)) return [{ file: generatorFolder('Python'), message: error.message, rule: surfaceRule }];
    const place = unnamableAction(error) ? createSourceLocator(projectDirectory, root)(error.pointer) : { file: root };
    return [{ ...place, message: `The client libraries cannot be generated from the contract: ${(error as Error).message.split('\n').slice(0, 6).join(' ')}`, rule: surfaceRule }];
  }
  const breaks = await breaksBetween(record, current);
  if (breaks.length === 0) return [];
  // The release's own contract through today's generators tells a generator's change from the contract's.
  let generatorBreaks = new Set<string>();
  try {
    const ofRelease = await surfacesOf(loadSnapshot(projectDirectory, release));
    generatorBreaks = new Set((await breaksBetween(record, ofRelease)).map((entry) => `${entry.language}\0${entry.message}`));
  } catch {
    // Without the release's libraries every break is laid at the contract's door, as it most likely is.
  }
  const locate = createSourceLocator(projectDirectory, root);
  const names = contractNames(document);
  const releaseSnapshot = snapshotFile(release.version);
  return breaks.map((entry) => {
    const problem = problemFor(entry, release, locate, names, root, generatorBreaks.has(`${entry.language}\0${entry.message}`));
    return problem.file === root && problem.line === undefined ? { ...problem, message: `${problem.message} (compared with ${releaseSnapshot})` } : problem;
  });
}

export const clientSurfacesStep: GateStep = {
  name: 'client libraries against the latest release',
  run: (context) => checkClientSurfaces(context),
};
