/**
 * Bundles the product-information server for Cloudflare Workers into one module,
 * .generated/mcp-worker/worker.js (what wrangler.jsonc deploys and the workerd test runs), with
 * the knowledge the Node process reads at start read here by the same functions and bundled as
 * data. The pages come from the built site, so the site is built first when it is stale.
 *   node scripts/build-worker.ts
 */
import path from 'node:path';
import { build } from 'esbuild';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { readKnowledgeSource } from '../src/mcp-server/load-knowledge.ts';
import type { BundledKnowledge } from '../src/mcp-server/worker.ts';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { nodeBuiltinsLeft, nodeBuiltinsUnlessUsed } from '../src/sandbox/in-browser/bundle.ts';
import { scriptArguments } from './script-options.ts';

export const workerOutfile = '.generated/mcp-worker/worker.js';

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
  const usedBuiltins = nodeBuiltinsLeft(result.metafile);
  if (usedBuiltins.length > 0) throw new Error(`The worker would need ${usedBuiltins.join(', ')}, which workerd does not have.`);
  return outfile;
}

if (import.meta.main) {
  scriptArguments('Usage: npm run build:worker (no options)', {});
  const outfile = await buildWorker(path.resolve(import.meta.dirname, '..'));
  console.log(`Worker bundled: ${path.relative(process.cwd(), outfile)}`);
}
