/**
 * The published contract tools: what the package is called and how it is laid out. `pack.ts`
 * writes it (with `package-files.ts`), `cli.ts` reads the contract it carries, the guides name it.
 */

export const toolsPackageName = '@subscription-lifecycle/contract-tools';
export const toolsCommand = 'subscription-lifecycle';
/** Where the command's bundled JavaScript and the carried contract sit inside the package. */
export const toolsBinFile = 'bin/subscription-lifecycle.js';
export const toolsContractFile = 'openapi/v1.json';
