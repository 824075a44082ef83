/**
 * The PHP library, generated from the one model: a Composer package whose every method, field,
 * bound, status, code and doc comment comes from the contract. `writePhpPackage` writes it into
 * a folder (`.generated/clients/php/` for the tests, a temporary one for the zip); nothing of it
 * is committed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { clientClass, clientInterface } from './client-class.ts';
import { documentedErrors, exceptionClassName, statusExceptionClass } from './exception-classes.ts';
import { composerPackageName, phpFloor, phpNamespace } from './php-source.ts';
import { resultClass } from './support-classes.ts';
import { contractLicense } from '../shared/license.ts';

/** The library's own PHP, written as PHP and copied into the package's src/ as it is, each file at the same path. */
export const phpRuntimeDirectory = path.join(import.meta.dirname, 'runtime');

/** The runtime's files, by their path inside the package (`src/Internal/ClientCore.php`), with their text. */
export function phpRuntimeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(phpRuntimeDirectory, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.php')) files.set(`src/${child}`, readFileSync(path.join(phpRuntimeDirectory, child), 'utf8'));
    }
  };
  walk('');
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** Where the tests and `npm run build:clients` write the package, relative to the project. */
export const phpPackageDirectory = '.generated/clients/php';

function composerJson(contract: ExecutableContract): string {
  const { model } = contract;
  return `${JSON.stringify(
    {
      name: composerPackageName,
      description: `Client of the subscription lifecycle endpoint, ${model.endpoint.method} ${model.endpoint.urlPath}, generated from its OpenAPI document ${model.documentVersion}.`,
      type: 'library',
      version: model.documentVersion,
      // The licence the OpenAPI document is published under, which the generated code derives from.
      license: contractLicense(contract).identifier,
      keywords: ['woocommerce', 'subscriptions', 'wordpress', 'api-client'],
      require: { php: `>=${phpFloor}`, 'ext-curl': '*', 'ext-json': '*' },
      autoload: { 'psr-4': { [`${phpNamespace}\\`]: 'src/' } },
    },
    null,
    4,
  )}\n`;
}

function readme(contract: ExecutableContract): string {
  const { model } = contract;
  return `# ${composerPackageName}

<!-- Generated from the OpenAPI document ${model.documentVersion} by src/clients/php/generate.ts; do not edit. -->

Client of the subscription lifecycle endpoint (${model.endpoint.method} ${model.endpoint.urlTemplate}),
generated from the OpenAPI document ${model.documentVersion}. PHP ${phpFloor} or newer, ext-curl and ext-json.

\`\`\`php
$client = new \\${phpNamespace}\\Client(getenv('SHOP_URL'), getenv('SHOP_API_KEY'));
\`\`\`

One method per action, each taking the action's fields as one array by the contract's names, and
\`send()\` for any action; each returns a \`Result\` or throws an exception of
\`${phpNamespace}\\Exception\`. The reference is the documentation site's page /clients/php/.
`;
}

/** Every file of the package, by its path inside the package: the runtime as written, and what the model generates. */
export function phpPackageFiles(contract: ExecutableContract): Map<string, string> {
  const version = contract.model.documentVersion;
  const files = new Map<string, string>([
    ['composer.json', composerJson(contract)],
    ['README.md', readme(contract)],
    ...phpRuntimeFiles(),
    ['src/ClientInterface.php', clientInterface(contract)],
    ['src/Client.php', clientClass(contract, version)],
    ['src/Result.php', resultClass(contract)],
  ]);
  for (const response of documentedErrors(contract)) {
    const file = `src/Exception/${exceptionClassName(response.status)}.php`;
    if (files.has(file)) throw new Error(`The status ${response.status} would be ${file}, a class the runtime already has.`);
    files.set(file, statusExceptionClass(response, version));
  }
  return files;
}

/** Writes the package into `directory` (emptied first) and returns the paths written, relative to it. */
export function writePhpPackage(contract: ExecutableContract, directory: string): string[] {
  rmSync(directory, { recursive: true, force: true });
  const files = phpPackageFiles(contract);
  for (const [file, text] of files) {
    const target = path.join(directory, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return [...files.keys()];
}
