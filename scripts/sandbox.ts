/**
 * `npm run sandbox`: the endpoint, served locally from the OpenAPI document once the contract
 * gate passes. Options and exit codes: `src/contract-tools/sandbox-command.ts`.
 *
 *   npm run sandbox -- [--port N] [--api-key KEY] [--seed FILE] [--db FILE] [--base-path P] [--throttle-next N [--retry-after S]]
 */
import path from 'node:path';
import { gatedProjectContract } from '../src/contract-tools/project-contract.ts';
import { runSandboxCommand } from '../src/contract-tools/sandbox-command.ts';

process.exitCode = await runSandboxCommand(process.argv.slice(2), {
  invocation: 'npm run sandbox --',
  contract: gatedProjectContract(path.resolve(import.meta.dirname, '..')),
});
