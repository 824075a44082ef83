/**
 * The one way in to the contract for everything that publishes or serves it: the site build, the
 * dev server, and the servers under `src/`. It runs the same gate as `npm run lint` (Redocly's
 * bundle and lint, the contract checks, the compatibility check against the latest release) and
 * hands out the bundled document only when the gate passes, so nothing is ever built or served
 * from a contract the gate refuses.
 *
 *   const { document } = await loadGatedContract(projectDirectory);
 */
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { formatGateProblem, type GateProblem } from './gate.ts';
import { runGate } from './run-gate.ts';
import { bundleDirectory } from '../lib/contract/bundle.ts';
import { asOpenApiDocument, type OpenApiDocument } from '../lib/contract/document.ts';

/** The contract refused by the gate; the message lists every problem as `npm run lint` does. */
export class ContractRefusedError extends Error {
  readonly problems: readonly GateProblem[];

  constructor(problems: readonly GateProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(
      [
        `The contract fails the gate (${count}); nothing is built or served from it. Fix each line below, then run \`npm run lint\`:`,
        ...problems.map(formatGateProblem),
      ].join('\n'),
    );
    this.name = 'ContractRefusedError';
    this.problems = problems;
  }
}

/**
 * Puts a file into `directory` under its own name in one step, so that a reader there sees the
 * old file or the new one, never half of it; the copy first makes this work across file systems.
 */
function moveInto(file: string, directory: string): string {
  const destination = path.join(directory, path.basename(file));
  const pending = `${destination}.${process.pid}.pending`;
  copyFileSync(file, pending);
  renameSync(pending, destination);
  return destination;
}

export interface GatedContract {
  /** The bundled document, as the gate checked it. */
  document: OpenApiDocument;
  /** The bundle the gate checked, as JSON and as YAML: the files the site publishes. */
  jsonPath: string;
  yamlPath: string;
}

/**
 * Runs the gate over the contract of `projectDirectory` and resolves with the bundled document,
 * or rejects with a `ContractRefusedError` naming every problem by file, line and rule. The bundle
 * (`v1.json`, `v1.yaml`) is written to `.generated/openapi/` unless `options.bundleDirectory`
 * (relative to the project, or absolute) says otherwise; each file is replaced whole, so a reader
 * never sees half of it.
 */
export async function loadGatedContract(
  projectDirectory = process.cwd(),
  options: { bundleDirectory?: string } = {},
): Promise<GatedContract> {
  // The gate bundles into a folder of its own, and the bundle moves to where the site and the
  // servers read it only once the gate has passed: a refused contract never reaches them.
  const generated = path.resolve(projectDirectory, '.generated');
  mkdirSync(generated, { recursive: true });
  const workDirectory = mkdtempSync(path.join(generated, 'gate-'));
  try {
    const result = await runGate({ projectDirectory, bundleDirectory: workDirectory });
    if (!result.ok || result.bundle === undefined) throw new ContractRefusedError(result.problems);
    const target = path.resolve(projectDirectory, options.bundleDirectory ?? bundleDirectory);
    mkdirSync(target, { recursive: true });
    const jsonPath = moveInto(result.bundle.jsonPath, target);
    const yamlPath = moveInto(result.bundle.yamlPath, target);
    return { document: asOpenApiDocument(result.bundle.document, jsonPath), jsonPath, yamlPath };
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}
