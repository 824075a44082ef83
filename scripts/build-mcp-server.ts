/**
 * `npm run mcp` runs the product-information server from one JavaScript module,
 * .generated/mcp-server.js, bundled here from scripts/mcp.ts with esbuild (the packages stay in
 * node_modules). Why: Node strips TypeScript types with a WebAssembly compiler whose memory stays
 * with the process, about 25 MB of a server that should stay under 150 MB. The bundle sits one
 * folder below the project, as scripts/mcp.ts does, and every module's `import.meta.dirname` is
 * rewritten to the module's own folder (`sourceFolders`), so the paths each finds are the same.
 *   node scripts/build-mcp-server.ts
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { scriptArguments } from './script-options.ts';

const projectDirectory = path.resolve(import.meta.dirname, '..');

/**
 * A module's own folder, as it is in the project, wherever the bundle runs from: each
 * `import.meta.dirname` of the project's sources becomes the bundle's folder plus the way from
 * there to the module's, so that a module deeper than one folder (a generator reading its
 * `runtime/` files) finds what it finds unbundled.
 */
function sourceFolders(outDirectory: string): Plugin {
  return {
    name: 'source-folders',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const contents = await readFile(args.path, 'utf8');
        if (!contents.includes('import.meta.dirname')) return undefined;
        const way = path.relative(outDirectory, path.dirname(args.path)).split(path.sep).join('/');
        return { contents: contents.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${way}`)})`), loader: 'ts' };
      });
    },
  };
}

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
    plugins: [sourceFolders(path.dirname(absolute))],
    logLevel: 'warning',
  });
  return absolute;
}

export const mcpServerBundle = '.generated/mcp-server.js';

if (import.meta.main) {
  scriptArguments('Usage: node scripts/build-mcp-server.ts (no options)', {});
  await bundleForNode('scripts/mcp.ts', mcpServerBundle);
}
