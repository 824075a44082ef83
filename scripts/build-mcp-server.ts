/**
 * `npm run mcp` runs the product-information server from one JavaScript module,
 * .generated/mcp-server.js, bundled here from scripts/mcp.ts with esbuild (the packages stay in
 * node_modules). Why: Node strips TypeScript types with a WebAssembly compiler whose memory stays
 * with the process, about 25 MB of a server that should stay under 150 MB. The bundle sits one
 * folder below the project, as scripts/mcp.ts does, so the paths it finds from its own folder
 * are the same.
 *   node scripts/build-mcp-server.ts
 */
import path from 'node:path';
import { build } from 'esbuild';
import { scriptArguments } from './script-options.ts';

const projectDirectory = path.resolve(import.meta.dirname, '..');

/** Bundles one Node entry (TypeScript) into one module beside the others in .generated/. */
export async function bundleForNode(entry: string, outfile: string): Promise<string> {
  const absolute = path.join(projectDirectory, outfile);
  if (path.dirname(path.dirname(absolute)) !== projectDirectory) throw new Error(`${outfile}: a bundle must sit one folder below the project`);
  await build({
    entryPoints: [path.join(projectDirectory, entry)],
    outfile: absolute,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    // Every module of a bundle is its main module: a script's `if (import.meta.main)` must not run.
    define: { 'import.meta.main': 'false' },
    logLevel: 'warning',
  });
  return absolute;
}

export const mcpServerBundle = '.generated/mcp-server.js';

if (import.meta.main) {
  scriptArguments('Usage: node scripts/build-mcp-server.ts (no options)', {});
  await bundleForNode('scripts/mcp.ts', mcpServerBundle);
}
