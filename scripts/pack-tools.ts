/**
 * `npm run pack:tools`: the sandbox and the conformance suite as an npm package that runs without
 * this repository (`src/contract-tools/pack.ts`), packed into a tarball; prints its path.
 *
 *   npm run pack:tools -- [--out DIR]      (default: .generated/contract-tools)
 *
 * Exits 1 when the contract fails the gate (nothing is packed), 2 on wrong options.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packContractTools } from '../src/contract-tools/pack.ts';
import { ContractRefusedError } from '../src/gate/gated-contract.ts';

const usage = 'Usage: npm run pack:tools -- [--out DIR]';
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
    const { tarball } = await packContractTools({
      projectDirectory,
      outputDirectory: values.out ?? path.join(projectDirectory, '.generated/contract-tools'),
    });
    console.log(tarball);
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
