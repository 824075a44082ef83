/**
 * The command of the published package, `subscription-lifecycle sandbox|conformance ...`: the
 * same commands as `npm run sandbox` and `npm run conformance`, over the contract the package
 * carries instead of the gate over a repository.
 */
import path from 'node:path';
import { exitCode } from './command.ts';
import { runConformanceCommand } from './conformance-command.ts';
import { bundledDocumentContract } from './contract-source.ts';
import { runSandboxCommand } from './sandbox-command.ts';
import { toolsCommand, toolsContractFile, toolsMainFile, toolsPackageName } from './tools-package.ts';

const usage = `Usage: ${toolsCommand} sandbox [options]      (${toolsCommand} sandbox --help)
       ${toolsCommand} conformance [options]  (${toolsCommand} conformance --help)
       ${toolsCommand} --version`;

// This file runs as the package's main file, imported by its bin; the contract sits at a path fixed by the layout.
const packageDirectory = path.resolve(import.meta.dirname, path.relative(path.dirname(toolsMainFile), '.'));
const contract = bundledDocumentContract(path.join(packageDirectory, toolsContractFile));

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'sandbox') return runSandboxCommand(rest, { invocation: `${toolsCommand} sandbox`, contract });
  if (command === 'conformance') return runConformanceCommand(rest, { invocation: `${toolsCommand} conformance`, contract });
  if (command === '--version' || command === '-v') {
    // The package's version is the version of the contract it carries.
    try {
      console.log(`${toolsPackageName} ${(await contract()).model.documentVersion}`);
      return exitCode.ok;
    } catch (error) {
      console.error((error as Error).message);
      return exitCode.failed;
    }
  }
  if (command === '--help' || command === '-h') {
    console.log(usage);
    return exitCode.ok;
  }
  console.error(command === undefined ? usage : `Unknown command "${command}".\n${usage}`);
  return exitCode.usage;
}

process.exitCode = await main(process.argv.slice(2));
