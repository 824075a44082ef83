import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { OpenApiDocument } from '../../lib/contract/document.ts';

/** Where the site publishes the sandbox's worker script; public/_headers gives it its own policy. */
export const sandboxWorkerPath = '/sandbox-worker.js';

/** Node's built-ins that shared modules import for what only Node does; one still used is an error. */
const nodeBuiltinsUnlessUsed: Plugin = {
  name: 'node-builtins-unless-used',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

/** What the page's policy forbids a script to do: compile code from text. */
const runtimeCompilation = /\bnew Function\s*\(|(?<![.\w$])Function\s*\(|(?<![.\w$])eval\s*\(/;

export class SandboxWorkerBuildError extends Error {}

/**
 * The sandbox for a page's dedicated worker, as one script: the sandbox's own stages
 * (answerRequest) over a memory store, with `document` (a contract the gate passed) inlined. It
 * must not compile code at run time (the page's policy has no `unsafe-eval`) nor load anything:
 * a bundle that imports a module or calls `eval` or `Function` is refused.
 */
export async function bundleSandboxWorker(document: OpenApiDocument, projectDirectory = process.cwd()): Promise<string> {
  const result = await build({
    entryPoints: [path.join(projectDirectory, 'src/sandbox/in-browser/worker.ts')],
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
    outfile: 'sandbox-worker.js',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new SandboxWorkerBuildError('esbuild wrote no sandbox worker');
  const usedBuiltins = Object.values(result.metafile.outputs).flatMap((file) => file.imports.filter((imported) => imported.external).map((imported) => imported.path));
  if (usedBuiltins.length > 0) throw new SandboxWorkerBuildError(`The sandbox worker would need ${[...new Set(usedBuiltins)].join(', ')}, which a browser does not have.`);
  const compiles = runtimeCompilation.exec(output.text);
  if (compiles !== null) throw new SandboxWorkerBuildError(`The sandbox worker compiles code at run time (${compiles[0]}…), which the page's policy forbids.`);
  return output.text;
}
