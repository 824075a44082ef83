/**
 * Makes the published package of the contract tools: runs the contract gate, bundles the command
 * with its dependencies into one ESM file (Node strips no types under node_modules, so the package
 * ships JavaScript), puts the gated bundle beside it, writes package.json and README.md, and packs
 * the folder with `npm pack`.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, stop as stopEsbuild, type Plugin } from 'esbuild';
import { loadGatedContract, type GatedContract } from '../gate/gated-contract.ts';
import { oldestSupportedNode } from '../lib/node-engine.ts';
import { packFolder } from '../lib/packaging/npm-pack.ts';
import { toolsLauncher, toolsPackageManifest, toolsReadme } from './package-files.ts';
import { toolsBinFile, toolsContractFile, toolsMainFile, toolsNodeEngineRange } from './tools-package.ts';

/** Where the package folder is written, inside the project (ignored by git). */
export const toolsPackageDirectory = '.generated/contract-tools/package';

/**
 * The package always hands the sandbox its carried contract, so the gate (and with it Redocly and
 * the repository's files) is left out; `startSandbox` imports it only when given no contract.
 */
const withoutContractGate: Plugin = {
  name: 'without-contract-gate',
  setup(builder) {
    builder.onResolve({ filter: /\/contract-gate\.ts$/ }, (args) => ({ path: args.path, external: true }));
  },
};

export interface PackedTools {
  tarball: string;
  packageDirectory: string;
  contractVersion: string;
}

export interface PackOptions {
  projectDirectory: string;
  /** Where `npm pack` writes the tarball. */
  outputDirectory: string;
  /** Where the package folder is written: `toolsPackageDirectory` of the project unless a test picks its own. */
  packageDirectory?: string;
  /** The source repository's URL for package.json, as a release with provenance needs. */
  repository?: string;
  /** The contract as the gate already passed it (the site's build hands over its own); without it the gate runs here. */
  gated?: GatedContract;
}

export async function packContractTools(options: PackOptions): Promise<PackedTools> {
  const { projectDirectory } = options;
  const packageDirectory = path.resolve(projectDirectory, options.packageDirectory ?? toolsPackageDirectory);
  const gateDirectory = options.gated === undefined ? mkdtempSync(path.join(tmpdir(), 'contract-tools-gate-')) : undefined;
  try {
    rmSync(packageDirectory, { recursive: true, force: true });
    mkdirSync(path.join(packageDirectory, path.dirname(toolsContractFile)), { recursive: true });
    // Rejects with every problem when the gate fails: nothing is packed from a refused contract.
    const gated = options.gated ?? (await loadGatedContract(projectDirectory, { bundleDirectory: gateDirectory }));
    copyFileSync(gated.jsonPath, path.join(packageDirectory, toolsContractFile));
    const contractVersion = gated.document.info.version;

    const binPath = path.join(packageDirectory, toolsBinFile);
    await build({
      entryPoints: [path.join(projectDirectory, 'src/contract-tools/cli.ts')],
      outfile: path.join(packageDirectory, toolsMainFile),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${oldestSupportedNode(toolsNodeEngineRange)}`,
      plugins: [withoutContractGate],
      // The CommonJS dependencies (Ajv) call `require` for Node's built-ins, which an ES module lacks.
      banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);" },
      logLevel: 'warning',
    });
    // esbuild's service process would otherwise keep the caller (a test) alive.
    await stopEsbuild();
    writeFileSync(binPath, toolsLauncher());
    chmodSync(binPath, 0o755);
    writeFileSync(path.join(packageDirectory, 'package.json'), `${JSON.stringify(toolsPackageManifest(contractVersion, options.repository), null, 2)}\n`);
    writeFileSync(path.join(packageDirectory, 'README.md'), toolsReadme(contractVersion));

    return { tarball: packFolder(packageDirectory, options.outputDirectory), packageDirectory, contractVersion };
  } finally {
    if (gateDirectory !== undefined) rmSync(gateDirectory, { recursive: true, force: true });
  }
}
