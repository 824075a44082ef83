/**
 * The published contract tools: what the package is called and how it is laid out. `pack.ts`
 * writes it (with `package-files.ts`), `cli.ts` reads the contract it carries, the guides name it.
 */

export const toolsPackageName = '@subscription-lifecycle/contract-tools';

/**
 * The Node versions the published tools run on: every maintained line from 22 on. 22.13.0 is the
 * first 22 where `node:sqlite`, which the sandbox stores its subscriptions in, needs no flag; the
 * tests run the tools on that version, on the project's own Node and on the newest line
 * (tests/integration/tools-download.test.ts). The repository itself needs the newer Node of
 * package.json's engines, which its npm scripts bring.
 */
export const toolsNodeEngineRange = '>=22.13.0';
export const toolsCommand = 'subscription-lifecycle';
/**
 * Where the command sits inside the package: a launcher that checks the Node version before
 * anything else loads, and the bundled JavaScript it then imports (beside it), and the carried contract.
 */
export const toolsBinFile = 'bin/subscription-lifecycle.js';
export const toolsMainFile = 'bin/main.js';
export const toolsContractFile = 'openapi/v1.json';

/** Where the site publishes the packed tools, as a download `npx --package <URL>` runs. */
export const toolsDownloadDirectory = 'downloads';

/** The tarball's file name, as `npm pack` writes it for this package and version. */
export function toolsTarballName(version: string): string {
  return `${toolsPackageName.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}
