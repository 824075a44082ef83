/** The package.json and README.md of the published contract tools, written by `pack.ts`. */
import { oldestSupportedNode } from '../lib/node-engine.ts';
import { exitCode } from './command.ts';
import { exitCodeList } from '../conformance/exit-codes.ts';
import { conformanceOptionHelp, conformanceOptionsSynopsis } from './conformance-command.ts';
import { sandboxHeaderHelp, sandboxOptionHelp, sandboxOptionsSynopsis } from './sandbox-command.ts';
import { toolsBinFile, toolsCommand, toolsContractFile, toolsMainFile, toolsNodeEngineRange, toolsPackageName } from './tools-package.ts';

/** Exit code of the launcher on a Node older than the package supports, before the command runs. */
export const tooOldNodeExitCode = 1;

/** `repository` is the source repository's URL, which npm's provenance requires to match where it was built. */
export function toolsPackageManifest(contractVersion: string, repository?: string): Record<string, unknown> {
  return {
    name: toolsPackageName,
    // The package is the contract made executable: its version is the version of the document it carries.
    version: contractVersion,
    description: 'The sandbox and the conformance suite of the Subscription Lifecycle Action Service, with the contract they check against.',
    type: 'module',
    bin: { [toolsCommand]: toolsBinFile },
    files: [toolsBinFile, toolsMainFile, toolsContractFile, 'README.md'],
    engines: { node: toolsNodeEngineRange },
    ...(repository === undefined ? {} : { repository: { type: 'git', url: repository } }),
  };
}

export function toolsReadme(contractVersion: string): string {
  return `# ${toolsPackageName}

The sandbox and the conformance suite of the Subscription Lifecycle Action Service (the WordPress
plugin's endpoint \`POST https://{site}/wp-json/service/v1/action\`), as one command, \`${toolsCommand}\`.
The package carries the contract they check against: the bundled OpenAPI document, version
${contractVersion}, in \`${toolsContractFile}\`, as it passed the contract gate when the package was
made. Nothing else is needed: no repository, no dependencies.

Node ${oldestSupportedNode(toolsNodeEngineRange)} or newer (\`engines.node\`: \`${toolsNodeEngineRange}\`); the sandbox keeps its data with \`node:sqlite\`.
On an older Node the command says which Node it needs and exits ${tooOldNodeExitCode}.

The documentation site publishes this package as a download too: where the commands below say
\`npx ${toolsPackageName}\`, \`npx --package <the download's URL or this tarball's path> ${toolsCommand}\`
runs the same command.

## The sandbox

\`\`\`sh
npx ${toolsPackageName} sandbox ${sandboxOptionsSynopsis}
\`\`\`

Serves the endpoint at \`http://127.0.0.1:8787/wp-json/service/v1/action\`, with one subscription
in every status and the key \`sandbox-key-not-a-secret\`, until Ctrl+C.

${sandboxOptionHelp.map(({ option, text }) => `- \`${option}\`: ${text}.`).join('\n')}

Request headers that make it answer as its host would, for testing a client's handling:

${sandboxHeaderHelp.map(({ header, text }) => `- \`${header}\`: ${text}.`).join('\n')}

Exit codes: ${exitCode.ok} when stopped, ${exitCode.failed} when the seed or the database cannot be used or the port is taken, ${exitCode.usage} on wrong options.

## The conformance suite

\`\`\`sh
npx ${toolsPackageName} conformance ${conformanceOptionsSynopsis}
npx ${toolsPackageName} conformance        # against a sandbox of its own
\`\`\`

Checks a deployment against the document: every action from every status, every error a client
can provoke. Only the named subscriptions are changed. Prints a coverage matrix and writes JUnit
XML (\`conformance-report.xml\` unless \`--junit FILE\`).

${conformanceOptionHelp.map(({ option, text }) => `- \`${option}\`: ${text}.`).join('\n')}

Exit codes:

${exitCodeList()
  .map(({ code, meaning }) => `- ${code}: ${meaning}.`)
  .join('\n')}

\`${toolsCommand} --version\` prints the package's version, which is the version of the contract it carries.
`;
}

/**
 * The package's bin: checks the Node version first, since the command imports built-in modules an
 * older Node lacks (`node:sqlite`) and would otherwise crash while loading, before a line of it
 * runs. Written in JavaScript old Nodes parse, and only then imports the command beside it.
 */
export function toolsLauncher(): string {
  const needed = oldestSupportedNode(toolsNodeEngineRange);
  const main = `./${toolsMainFile.split('/').at(-1) ?? ''}`;
  return `#!/usr/bin/env node
var needed = ${JSON.stringify(needed)};
var have = process.versions.node;
function older(version, than) {
  var left = version.split('.').map(Number);
  var right = than.split('.').map(Number);
  for (var index = 0; index < 3; index += 1) {
    if ((left[index] || 0) !== (right[index] || 0)) return (left[index] || 0) < (right[index] || 0);
  }
  return false;
}
if (older(have, needed)) {
  console.error('${toolsCommand} needs Node ' + needed + ' or newer (engines.node ${toolsNodeEngineRange}); this is Node ' + have + ' (' + process.execPath + ').');
  console.error('Install Node ' + needed + ' or newer (https://nodejs.org/), or put it first on PATH, and run the command again.');
  process.exitCode = ${tooOldNodeExitCode};
} else {
  // Node 22 calls node:sqlite experimental on every start; the sandbox's output is for the reader, so that one warning is left out.
  var emitWarning = process.emitWarning;
  process.emitWarning = function (warning, options) {
    var type = typeof options === 'string' ? options : options && options.type;
    if (type === 'ExperimentalWarning' && /SQLite/.test(String(warning && warning.message ? warning.message : warning))) return;
    return emitWarning.apply(process, arguments);
  };
  import(${JSON.stringify(main)});
}
`;
}
