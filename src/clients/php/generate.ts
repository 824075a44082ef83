/**
 * The PHP library, generated from the one model: a Composer package whose every method, field,
 * bound, status, code and doc comment comes from the contract. `writePhpPackage` writes it into
 * a folder (`.generated/clients/php/` for the tests, a temporary one for the zip); nothing of it
 * is committed.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { clientClass } from './client-class.ts';
import {
  clientExceptionInterface,
  documentedErrors,
  exceptionClassName,
  hostExceptionClass,
  invalidFieldClass,
  serviceExceptionClass,
  statusExceptionClass,
  throttledExceptionClass,
  transportExceptionClass,
} from './exception-classes.ts';
import { composerPackageName, phpFloor, phpNamespace } from './php-source.ts';
import { resultClass, retryAfterClass } from './support-classes.ts';
import { curlTransportClass, requestClass, responseClass, transportInterface, wordPressTransportClass } from './transport-classes.ts';

/** Where the tests and `npm run build:clients` write the package, relative to the project. */
export const phpPackageDirectory = '.generated/clients/php';

function composerJson(contract: ExecutableContract): string {
  const { model } = contract;
  const license = contract.document.info.license?.identifier ?? contract.document.info.license?.name;
  return `${JSON.stringify(
    {
      name: composerPackageName,
      description: `Client of the subscription lifecycle endpoint, ${model.endpoint.method} ${model.endpoint.urlPath}, generated from its OpenAPI document ${model.documentVersion}.`,
      type: 'library',
      version: model.documentVersion,
      // The licence the OpenAPI document is published under, which the generated code derives from.
      ...(license === undefined ? {} : { license }),
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

Client of the subscription lifecycle endpoint (${model.endpoint.method} ${model.endpoint.urlTemplate}),
generated from the OpenAPI document ${model.documentVersion}. PHP ${phpFloor} or newer, ext-curl and ext-json.

\`\`\`php
$client = new \\${phpNamespace}\\Client(getenv('SHOP_URL'), getenv('SHOP_API_KEY'));
\`\`\`

One method per action; each returns a \`Result\` or throws an exception of
\`${phpNamespace}\\Exception\`. The reference is the documentation site's page /clients/php/.
`;
}

/** Every file of the package, by its path inside the package. */
export function phpPackageFiles(contract: ExecutableContract): Map<string, string> {
  const version = contract.model.documentVersion;
  const files = new Map<string, string>([
    ['composer.json', composerJson(contract)],
    ['README.md', readme(contract)],
    ['src/Client.php', clientClass(contract, version)],
    ['src/Result.php', resultClass(contract)],
    ['src/RetryAfter.php', retryAfterClass(contract)],
    ['src/Transport/Transport.php', transportInterface()],
    ['src/Transport/Request.php', requestClass()],
    ['src/Transport/Response.php', responseClass()],
    ['src/Transport/CurlTransport.php', curlTransportClass()],
    ['src/Transport/WordPressTransport.php', wordPressTransportClass()],
    ['src/Exception/ClientException.php', clientExceptionInterface()],
    ['src/Exception/InvalidFieldException.php', invalidFieldClass()],
    ['src/Exception/ServiceException.php', serviceExceptionClass()],
    ['src/Exception/HostException.php', hostExceptionClass()],
    ['src/Exception/TransportException.php', transportExceptionClass()],
    [`src/Exception/${exceptionClassName(contract.throttled.status)}.php`, throttledExceptionClass(contract)],
  ]);
  for (const response of documentedErrors(contract)) {
    files.set(`src/Exception/${exceptionClassName(response.status)}.php`, statusExceptionClass(response));
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
