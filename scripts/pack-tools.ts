/**
 * `npm run pack:tools`: the sandbox and the conformance suite as an npm package that runs without
 * this repository (`src/contract-tools/pack.ts`), packed into a tarball; prints its path.
 *
 *   npm run pack:tools -- [--out DIR] [--repository URL]     (default: .generated/contract-tools)
 *
 * `--repository` writes the source repository into package.json, as npm's provenance requires
 * (the release workflow, .github/workflows/release-contract-tools.yml, passes it).
 *
 * Exits 1 when the contract fails the gate (nothing is packed), 2 on wrong options.
 */
import path from 'node:path';
import { packContractTools } from '../src/contract-tools/pack.ts';
import { ContractRefusedError } from '../src/gate/gated-contract.ts';
import { readPackOptions } from './pack-options.ts';

const usage = 'Usage: npm run pack:tools -- [--out DIR] [--repository URL]';
const projectDirectory = path.resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  const values = readPackOptions(usage);
  if (typeof values === 'number') return values;
  try {
    const { tarball } = await packContractTools({
      projectDirectory,
      outputDirectory: values.out ?? path.join(projectDirectory, '.generated/contract-tools'),
      ...(values.repository === undefined ? {} : { repository: values.repository }),
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
