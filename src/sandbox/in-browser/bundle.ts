import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import type { OpenApiDocument } from '../../lib/contract/document.ts';

/** Where the site publishes the sandbox's worker script; public/_headers gives it its own policy. */
export const sandboxWorkerPath = '/sandbox-worker.js';

/** Where the site publishes the "Try it" panel, which the request builder imports on the first click. */
export const tryPanelPath = '/try-it-panel.js';

/**
 * Node's built-ins that shared modules import for what only Node does (reading files, the SQLite
 * store), for a bundle that runs without Node: here and on workerd (scripts/build-worker.ts).
 * Marked free of side effects, an import nothing calls is dropped; one that remains is listed by
 * `nodeBuiltinsLeft`, and the build refuses it.
 */
export const nodeBuiltinsUnlessUsed: Plugin = {
  name: 'node-builtins-unless-used',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

/** The built-ins a bundle made with `nodeBuiltinsUnlessUsed` still imports, each once. */
export function nodeBuiltinsLeft(metafile: Metafile): string[] {
  return [...new Set(Object.values(metafile.outputs).flatMap((output) => output.imports.filter((imported) => imported.external).map((imported) => imported.path)))];
}

/** What the page's policy forbids a script to do: compile code from text. */
const runtimeCompilation = /\bnew Function\s*\(|(?<![.\w$])Function\s*\(|(?<![.\w$])eval\s*\(/;

export class SandboxWorkerBuildError extends Error {}

/**
 * One script for the browser from one entry module, everything it imports included, checked:
 * a script that would import a module at run time or compile code (`eval`, `Function`) is
 * refused, since the pages' policy has no `unsafe-eval` and the worker's allows nothing.
 */
async function bundleForBrowser(entry: string, define: Record<string, string>): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [nodeBuiltinsUnlessUsed],
    metafile: true,
    write: false,
    outfile: path.basename(entry).replace(/\.ts$/, '.js'),
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new SandboxWorkerBuildError(`esbuild wrote nothing for ${entry}`);
  const usedBuiltins = nodeBuiltinsLeft(result.metafile);
  if (usedBuiltins.length > 0) throw new SandboxWorkerBuildError(`${entry} would need ${usedBuiltins.join(', ')}, which a browser does not have.`);
  const compiles = runtimeCompilation.exec(output.text);
  if (compiles !== null) throw new SandboxWorkerBuildError(`${entry} compiles code at run time (${compiles[0]}…), which the pages' policy forbids.`);
  return output.text;
}

/** The sandbox for a page's dedicated worker: its own stages over a memory store, with `document` (a contract the gate passed) inlined. */
export function bundleSandboxWorker(document: OpenApiDocument, projectDirectory = process.cwd()): Promise<string> {
  return bundleForBrowser(path.join(projectDirectory, 'src/sandbox/in-browser/worker.ts'), { bundledDocument: JSON.stringify(document) });
}

/** The "Try it" panel, a module the request builder imports on the reader's first click. */
export function bundleTryPanel(projectDirectory = process.cwd()): Promise<string> {
  return bundleForBrowser(path.join(projectDirectory, 'src/components/reference/try-it/entry.ts'), {});
}
