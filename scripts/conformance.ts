/**
 * `npm run conformance`: checks a deployment of the endpoint against the document, once the
 * contract gate passes. Options and exit codes: `src/contract-tools/conformance-command.ts`.
 *
 *   npm run conformance -- --base-url URL --api-key KEY --subscription ID [--subscription ID ...] [--junit FILE] [--allow-unreached]
 *     [--max-retry-after SECONDS] [--verbose]
 *   npm run conformance                      (against a sandbox of its own)
 */
import path from 'node:path';
import { runConformanceCommand } from '../src/contract-tools/conformance-command.ts';
import { gatedProjectContract } from '../src/contract-tools/project-contract.ts';

process.exitCode = await runConformanceCommand(process.argv.slice(2), {
  invocation: 'npm run conformance --',
  contract: gatedProjectContract(path.resolve(import.meta.dirname, '..')),
});
