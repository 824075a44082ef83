/**
 * Bundles the sandbox for a page's dedicated worker into one script,
 * .generated/sandbox-worker/sandbox-worker.js: the sandbox's own stages (answerRequest) over a
 * memory store, with the contract the gate passed inlined. It must not compile code at run time
 * (the page's policy has no `unsafe-eval`) nor load anything: the build refuses a bundle that
 * imports a module or calls `eval` or `Function`.
 *   node scripts/build-sandbox-worker.ts
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { loadGatedContract } from '../src/sandbox/contract-gate.ts';

export const sandboxWorkerOutfile = '.generated/sandbox-worker/sandbox-worker.js';

/** Node's built-ins that shared modules import for what only Node does; one still used is an error. */
const nodeBuiltinsUnlessUsed: Plugin = {
  name: 'node-builtins-unless-used',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

/** What the page's policy forbids a script to do: compile code from text. */
const runtimeCompilation = /\bnew Function\s*\(|(?<![.\w])Function\s*\(|(?<![.\w])eval\s*\(/;

export interface SandboxWorkerBuild {
  outfile: string;
  bytes: number;
}

export async function buildSandboxWorker(projectDirectory: string, outfile = path.join(projectDirectory, sandboxWorkerOutfile)): Promise<SandboxWorkerBuild> {
  const { document } = await loadGatedContract(projectDirectory);
  const result = await build({
    entryPoints: [path.join(projectDirectory, 'src/sandbox/in-browser/worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { bundledDocument: JSON.stringify(document) },
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [nodeBuiltinsUnlessUsed],
    metafile: true,
    write: false,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild wrote no sandbox worker');
  const usedBuiltins = Object.values(result.metafile.outputs).flatMap((file) => file.imports.filter((imported) => imported.external).map((imported) => imported.path));
  if (usedBuiltins.length > 0) throw new Error(`The sandbox worker would need ${[...new Set(usedBuiltins)].join(', ')}, which a browser does not have.`);
  const compiles = runtimeCompilation.exec(output.text);
  if (compiles !== null) throw new Error(`The sandbox worker compiles code at run time (${compiles[0]}…), which the page's policy forbids.`);
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(path.dirname(outfile), { recursive: true });
  writeFileSync(outfile, output.contents);
  return { outfile, bytes: output.contents.length };
}

if (import.meta.main) {
  const built = await buildSandboxWorker(path.resolve(import.meta.dirname, '..'));
  console.log(`Sandbox worker bundled: ${path.relative(process.cwd(), built.outfile)} (${built.bytes} bytes)`);
}
