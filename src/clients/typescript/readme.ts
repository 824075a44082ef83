/** The package's README.md, written from the model: what it is, how to install and call it. */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { siteConfig } from '../../site-config.ts';
import { errorClassName, typescriptClientPackageName } from './generate.ts';
import { conflictExample, exampleScript, installCommand } from './usage.ts';

export function typescriptClientReadme(contract: ExecutableContract): string {
  const version = contract.model.documentVersion;
  const docs = `${siteConfig.docsUrl.replace(/\/+$/, '')}/clients/typescript/`;
  return `# ${typescriptClientPackageName}

A typed client of the Subscription Lifecycle Action Service, generated from version ${version} of its
OpenAPI contract: one method per action, one error class per documented error, \`Retry-After\`
honoured up to a bound, a courtesy pace of about one request a second per site, timeouts and
\`AbortSignal\`. ES modules with their types, no dependencies, \`fetch\`: Node 20 or newer, Workers.

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
