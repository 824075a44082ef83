/** The package's README.md, written from the model: what it is, how to install and call it. */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { siteConfig } from '../../site-config.ts';
import { contractLicense } from '../shared/license.ts';
import { typescriptClientNodeLines } from './node-lines.ts';
import { errorClassName, typescriptClientPackageName } from './generate.ts';
import { conflictExample, exampleScript, installCommand } from './usage.ts';

export function typescriptClientReadme(contract: ExecutableContract): string {
  const version = contract.model.documentVersion;
  const docs = `${siteConfig.docsUrl.replace(/\/+$/, '')}/clients/typescript/`;
  return `<!-- Generated from version ${version} of the contract by src/clients/typescript/readme.ts. Do not edit: regenerate the package. -->

# ${typescriptClientPackageName}

A typed client of the Subscription Lifecycle Action Service, generated from version ${version} of its
OpenAPI contract: one method per action, one error class per documented error, \`Retry-After\`
honoured up to a bound, a courtesy pace of about one request a second per site, timeouts and
\`AbortSignal\`, every attempt reported to an \`onAttempt\` hook. ES modules and CommonJS, each with its
types (\`import\` or \`require()\`), no dependencies, \`fetch\`: Node ${typescriptClientNodeLines[0]} or newer, Workers.
Licence: ${contractLicense(contract).identifier} (see LICENSE).

\`\`\`sh
${installCommand(siteConfig.docsUrl, version)}
\`\`\`

\`\`\`js
${exampleScript(contract).trim()}
\`\`\`

A refusal of the subscription's status:

\`\`\`js
${conflictExample(contract, errorClassName(contract.errors.transitionNotAllowed.status)).trim()}
\`\`\`

Everything else, every method and its fields: ${docs}
`;
}
