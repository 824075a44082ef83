import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContractError } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { ContractRefusedError, loadGatedContract as loadGatedDocument } from '../gate/gated-contract.ts';
import { formatGateProblem } from '../gate/gate.ts';

/** The contract failed the gate, so nothing may be served from it; `lines` say where and why. */
export class ContractRefused extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(`The contract fails the gate (npm run lint), so the sandbox does not start:\n${lines.join('\n')}`);
    this.name = 'ContractRefused';
    this.lines = lines;
  }
}

const gated = new Map<string, Promise<ExecutableContract>>();

async function gate(projectDirectory: string): Promise<ExecutableContract> {
  // A bundle of its own, so a sandbox starting while `npm run build` runs never reads a half-written file.
  const bundleDirectory = mkdtempSync(path.join(tmpdir(), 'sandbox-contract-'));
  try {
    const { document } = await loadGatedDocument(projectDirectory, { bundleDirectory });
    return readExecutableContract(document);
  } catch (error) {
    if (error instanceof ContractRefusedError) throw new ContractRefused(error.problems.map(formatGateProblem));
    if (error instanceof ContractError) throw new ContractRefused([error.message]);
    throw error;
  } finally {
    rmSync(bundleDirectory, { recursive: true, force: true });
  }
}

/**
 * Runs the contract gate of `npm run lint` over the project and reads the endpoint from the
 * bundle it checked. Refuses, with the gate's `file: line N: message` lines, a contract the
 * gate fails. One run per project and process: every sandbox a test starts serves the same
 * contract, and the gate takes a second or two.
 */
export function loadGatedContract(projectDirectory: string): Promise<ExecutableContract> {
  const key = path.resolve(projectDirectory);
  let loading = gated.get(key);
  if (loading === undefined) {
    loading = gate(key);
    // A refusal is not kept: the maintainer may fix the contract and start again in the same process.
    loading.catch(() => gated.delete(key));
    gated.set(key, loading);
  }
  return loading;
}
