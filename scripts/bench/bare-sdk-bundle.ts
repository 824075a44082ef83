/**
 * The bare SDK's handler (scripts/bench/bare-mcp-worker.ts) bundled for the benches that set it
 * beside ours: for workerd (scripts/bench-mcp-worker.ts) or for Node (scripts/bench-mcp-allocation.ts).
 */
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles the bare SDK's handler for `runtime` and returns the module's path; `answerText` is the
 * JavaScript expression its one tool answers with (a string literal, or a global read per call).
 */
export async function bundleBareSdk(root: string, runtime: 'workerd' | 'node', answerText: string): Promise<string> {
  const outfile = path.join(root, runtime === 'workerd' ? '.generated/bench-tools/bare-mcp-worker.js' : '.generated/bench-tools/bare-mcp-node.mjs');
  await build({
    entryPoints: [path.join(root, 'scripts/bench/bare-mcp-worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    ...(runtime === 'workerd' ? { platform: 'browser', target: 'es2024', conditions: ['workerd', 'worker', 'browser'] } : { platform: 'node', target: 'node24' }),
    define: { answerText },
    logLevel: 'warning',
  });
  return outfile;
}
