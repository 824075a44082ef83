/**
 * Bundles the product-information server for Cloudflare Workers into one module,
 * .generated/mcp-worker/worker.js (what wrangler.jsonc deploys and the workerd test runs), with
 * the knowledge the Node process reads at start read here by the same functions and bundled as
 * data. The pages come from the built site, so the site is built first when it is stale.
 *   node scripts/build-worker.ts
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { readKnowledgeSource } from '../src/mcp-server/load-knowledge.ts';
import type { BundledKnowledge } from '../src/mcp-server/worker.ts';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { scriptArguments } from './script-options.ts';

export const workerOutfile = '.generated/mcp-worker/worker.js';

/**
 * The modules the server shares with the Node process import Node's built-ins for what only the
 * Node process does (reading files, the sandbox's store). Marked free of side effects, an import
 * nothing in the worker calls is dropped; one that remains is an error, not a crash at run time.
 */
const nodeBuiltinsUnlessUsed: Plugin = {
  name: 'node-builtins-unless-used',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

export async function buildWorker(projectDirectory: string, say: (line: string) => void = console.log): Promise<string> {
  ensureBuiltSite(projectDirectory, say);
  const bundled: BundledKnowledge = { identity: readServerIdentity(projectDirectory), source: await readKnowledgeSource(projectDirectory) };
  const outfile = path.join(projectDirectory, workerOutfile);
  const result = await build({
    entryPoints: [path.join(projectDirectory, 'src/mcp-server/worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'],
    define: { bundledKnowledge: JSON.stringify(bundled) },
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [nodeBuiltinsUnlessUsed],
    metafile: true,
  });
  const usedBuiltins = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((imported) => imported.external).map((imported) => imported.path));
  if (usedBuiltins.length > 0) throw new Error(`The worker would need ${[...new Set(usedBuiltins)].join(', ')}, which workerd does not have.`);
  return outfile;
}

if (import.meta.main) {
  scriptArguments('Usage: npm run build:worker (no options)', {});
  const outfile = await buildWorker(path.resolve(import.meta.dirname, '..'));
  console.log(`Worker bundled: ${path.relative(process.cwd(), outfile)}`);
}
