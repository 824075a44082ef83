/**
 * `node scripts/pack-client-typescript.ts`: the TypeScript client generated from the contract
 * (src/clients/typescript/), built into .generated/clients/typescript/ and packed by `npm pack`;
 * prints the tarball's path.
 *
 *   node scripts/pack-client-typescript.ts [--out DIR]     (default: .generated/clients)
 *
 * Exits 1 when the contract fails the gate (nothing is packed), 2 on wrong options.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { typescriptClientPackage } from '../src/clients/typescript/package.ts';
import { ContractRefusedError } from '../src/gate/gated-contract.ts';

const usage = 'Usage: node scripts/pack-client-typescript.ts [--out DIR]';
const projectDirectory = path.resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help === true) {
    console.log(usage);
    return 0;
  }
  try {
    console.log(await typescriptClientPackage.pack(values.out ?? path.join(projectDirectory, '.generated/clients')));
    return 0;
  } catch (error) {
    if (error instanceof ContractRefusedError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
