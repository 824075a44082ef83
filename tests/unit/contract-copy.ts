import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { copyBuildableProject } from '../../src/bench/project-copy.ts';
import { bundleContract } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../../src/lib/contract/document.ts';

/** The repository this test suite belongs to. */
export const projectDirectory = path.resolve(import.meta.dirname, '../..');

let bundled: OpenApiDocument | undefined;

/**
 * The project's contract, bundled once by the real Redocly CLI into a temporary directory that is
 * removed at once, so a test reads the document the build does without depending on a previous
 * build or racing one for `.generated/`. Each call returns a fresh copy that a test may break.
 */
export function bundledDocument(): OpenApiDocument {
  if (bundled === undefined) {
    const output = mkdtempSync(path.join(tmpdir(), 'contract-bundle-'));
    try {
      const contract = bundleContract(projectDirectory, undefined, output);
      bundled = asOpenApiDocument(contract.document, contract.jsonPath);
    } finally {
      rmSync(output, { recursive: true, force: true });
    }
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
