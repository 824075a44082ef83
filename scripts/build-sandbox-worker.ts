/**
 * Bundles the sandbox for a page's dedicated worker (src/sandbox/in-browser/bundle.ts) into
 * .generated/sandbox-worker/sandbox-worker.js, from the contract once the gate passes it. The
 * site publishes the same script at /sandbox-worker.js (src/pages/sandbox-worker.js.ts).
 *   node scripts/build-sandbox-worker.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';
import { bundleSandboxWorker } from '../src/sandbox/in-browser/bundle.ts';

export const sandboxWorkerOutfile = '.generated/sandbox-worker/sandbox-worker.js';

export interface SandboxWorkerBuild {
  outfile: string;
  bytes: number;
}

export async function buildSandboxWorker(projectDirectory: string, outfile = path.join(projectDirectory, sandboxWorkerOutfile)): Promise<SandboxWorkerBuild> {
  const { document } = await loadGatedContract(projectDirectory);
  const script = await bundleSandboxWorker(document, projectDirectory);
  mkdirSync(path.dirname(outfile), { recursive: true });
  writeFileSync(outfile, script);
  return { outfile, bytes: Buffer.byteLength(script) };
}

if (import.meta.main) {
  const built = await buildSandboxWorker(path.resolve(import.meta.dirname, '..'));
  console.log(`Sandbox worker bundled: ${path.relative(process.cwd(), built.outfile)} (${built.bytes} bytes)`);
}
