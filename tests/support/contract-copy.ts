import { cpSync, existsSync, globSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { copyBuildableProject } from '../../src/bench/project-copy.ts';
import { gateBundleDirectory } from '../../src/gate/run-gate.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/contract/document.ts';

/** The repository this test suite belongs to. */
export const projectDirectory = path.resolve(import.meta.dirname, '../..');

let bundled: OpenApiDocument | undefined;

/** Every file the bundle is made from: the contract's sources and Redocly's configuration. */
function contractSources(): string[] {
  const sources = globSync('openapi/**/*.{yaml,yml,json}', { cwd: projectDirectory }).map((file) => path.join(projectDirectory, file));
  return [...sources, path.join(projectDirectory, 'redocly.yaml')];
}

/**
 * The project's contract as the gate bundled and checked it: `.generated/lint/v1.json`, which
 * `npm run lint` writes and which `npm test` runs before any tier. The tests read that one bundle
 * instead of starting Redocly again in every file, so the unit tier starts no process. A bundle
 * missing, or older than a source of the contract, is refused: the tests would read a document
 * that is not the one in `openapi/`. Each call returns a fresh copy that a test may break.
 */
export function bundledDocument(): OpenApiDocument {
  if (bundled === undefined) {
    const bundlePath = path.join(projectDirectory, gateBundleDirectory, 'v1.json');
    const rerun = 'run `npm run lint` (the gate writes it), then the tests again';
    if (!existsSync(bundlePath)) throw new Error(`${path.relative(projectDirectory, bundlePath)} is missing: ${rerun}.`);
    const bundledAt = statSync(bundlePath).mtimeMs;
    const newer = contractSources().filter((file) => statSync(file).mtimeMs > bundledAt);
    if (newer.length > 0) {
      const names = newer.map((file) => path.relative(projectDirectory, file)).join(', ');
      throw new Error(`${path.relative(projectDirectory, bundlePath)} is older than ${names}: ${rerun}.`);
    }
    bundled = asOpenApiDocument(JSON.parse(readFileSync(bundlePath, 'utf8')), bundlePath);
  }
  return structuredClone(bundled);
}

/**
 * A throw-away copy of the contract (`openapi/` and `redocly.yaml`) in a temporary directory,
 * for tests that break it on purpose. The real files are never touched.
 */
export interface ContractCopy {
  directory: string;
  read(file: string): string;
  write(file: string, text: string): void;
  /** Replaces text that must be there, so a test can never pass by breaking nothing. */
  replace(file: string, search: string, replacement: string): void;
  /** Edits a YAML file as data (comments and layout are not kept). */
  editYaml(file: string, edit: (data: Record<string, unknown>) => void): void;
  remove(): void;
}

export function copyContract(): ContractCopy {
  const directory = mkdtempSync(path.join(tmpdir(), 'contract-gate-'));
  cpSync(path.join(projectDirectory, 'openapi'), path.join(directory, 'openapi'), { recursive: true });
  cpSync(path.join(projectDirectory, 'redocly.yaml'), path.join(directory, 'redocly.yaml'));
  return contractCopyAt(directory);
}

/**
 * A throw-away copy of the whole project, sources and configuration, that the real `astro build`
 * or `astro dev` runs on (src/bench/project-copy.ts says how): enough to build over a changed or a
 * broken contract. It lives in the project's ignored `.generated/`.
 */
export function copyProject(): ContractCopy {
  return contractCopyAt(copyBuildableProject(projectDirectory, 'project-copy-').directory);
}

function contractCopyAt(directory: string): ContractCopy {
  const absolute = (file: string): string => path.join(directory, file);
  const copy: ContractCopy = {
    directory,
    read: (file) => readFileSync(absolute(file), 'utf8'),
    write: (file, text) => writeFileSync(absolute(file), text),
    replace(file, search, replacement) {
      const text = copy.read(file);
      if (!text.includes(search)) throw new Error(`${file} does not contain ${JSON.stringify(search)}`);
      copy.write(file, text.replace(search, replacement));
    },
    editYaml(file, edit) {
      const data: unknown = parse(copy.read(file));
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${file} is not a YAML mapping`);
      edit(data as Record<string, unknown>);
      copy.write(file, stringify(data));
    },
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
  return copy;
}
