/**
 * The code the /clients/php/ page gives, generated from the model: the install commands from the
 * site's download, the whole example script, and the shorter examples of each section. The page's
 * test runs the install commands and the example as the built page shows them.
 */
import type { Action } from '../../lib/contract/model.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { quickstartExamples } from '../../lib/contract/facts.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { toolsDownloadDirectory } from '../../contract-tools/tools-package.ts';
import { methodName } from './client-class.ts';
import { detailGetterName, exceptionClassName } from './exception-classes.ts';
import { phpZipName } from './package.ts';
import { camelCaseName } from '../../lib/samples/client-libraries.ts';
import { composerPackageName, phpNamespace, phpString } from './php-source.ts';

/** The file the page saves the example in, and the folder the zip is unpacked into. */
export const phpExampleFile = 'pause.php';
export const phpPackageFolder = 'subscription-lifecycle-client-php';

/** The environment the example reads. */
export const exampleEnvironment = ['SHOP_URL', 'SHOP_API_KEY', 'SUBSCRIPTION_ID'] as const;

/** The action the example runs: the quickstart's, which pauses a subscription. */
export function exampleAction(contract: ExecutableContract): Action {
  const request = quickstartExamples(contract.model).request;
  const action = contract.action(String(request[contract.model.envelope.selector]));
  if (action === undefined) throw new Error('the quickstart example names no action of the model');
  return action;
}

/** The zip's address on the site. */
export function phpDownloadUrl(contract: ExecutableContract, docsUrl: string): string {
  return `${docsUrl}/${toolsDownloadDirectory}/${phpZipName(contract.model.documentVersion)}`;
}

/** In an empty folder with PHP and Composer: download, unpack with PHP's own Phar, install offline from the folder. */
export function installCommands(contract: ExecutableContract, docsUrl: string): string {
  const zip = phpZipName(contract.model.documentVersion);
  const repository = JSON.stringify({ type: 'path', url: `./${phpPackageFolder}` });
  return [
    `php -r "copy('${phpDownloadUrl(contract, docsUrl)}', '${zip}');"`,
    `php -r "(new PharData('${zip}'))->extractTo('${phpPackageFolder}');"`,
    `composer init --no-interaction --name my/shop-client --repository '${repository}'`,
    `composer require ${composerPackageName}:${contract.model.documentVersion}`,
  ].join('\n');
}

/** The whole example script: reads the environment, runs the example's action, prints the answer. */
export function exampleScript(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const { result } = contract;
  const property = (member: string) => `$result->${camelCaseName(member)}`;
  return `<?php
require __DIR__ . '/vendor/autoload.php';

use ${phpNamespace}\\Client;
use ${phpNamespace}\\Exception\\ClientException;

foreach ([${exampleEnvironment.map((name) => phpString(name)).join(', ')}] as $name) {
    if (getenv($name) === false) {
        fwrite(STDERR, "Set $name first.\\n");
        exit(2);
    }
}

$client = new Client(getenv('SHOP_URL'), getenv('SHOP_API_KEY'));

try {
    $result = $client->${methodName(action)}((int) getenv('SUBSCRIPTION_ID'));
    printf(
        "%s: %s -> %s (changed: %s)\\n",
        ${property(result.action)},
        ${property(result.previousStatus)},
        ${property(result.status)},
        ${property(result.changed)} ? 'yes' : 'no'
    );
    echo json_encode($result, JSON_PRETTY_PRINT), "\\n";
} catch (ClientException $error) {
    fwrite(STDERR, get_class($error) . ': ' . $error->getMessage() . "\\n");
    exit(1);
}
`;
}

/** How to run it: the three variables, with a visibly fake key. */
export function runCommand(siteExample: string): string {
  return `SHOP_URL=${siteExample} SHOP_API_KEY=example-key-not-a-secret SUBSCRIPTION_ID=42 php ${phpExampleFile}`;
}

/** Reading a refusal: the 409's current status and allowed actions. */
export function conflictExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const conflict = exceptionClassName(String(contract.errors.transitionNotAllowed.status));
  const throttled = exceptionClassName(contract.throttled.status);
  return `use ${phpNamespace}\\Exception\\${conflict};
use ${phpNamespace}\\Exception\\${throttled};
use ${phpNamespace}\\Exception\\HostException;
use ${phpNamespace}\\Exception\\TransportException;

try {
    $result = $client->${methodName(action)}($subscriptionId);
} catch (${conflict} $refused) {
    // The status does not accept the action: nothing changed.
    $current = $refused->${detailGetterName(contract.errors.currentStatusMember)}();
    $allowed = $refused->${detailGetterName(contract.errors.allowedActionsMember)}();
    printf("The subscription is %s; it accepts: %s\\n", $current, implode(', ', $allowed));
} catch (${throttled} $throttled) {
    // The host throttled the request longer than the retry bound waits.
    printf("Try again in %s s\\n", $throttled->getRetryAfter() ?? 'a while');
} catch (HostException $host) {
    // A firewall's or CDN's page, not the service's answer.
} catch (TransportException $noAnswer) {
    // No answer in time: $noAnswer->isTimeout(). The action is safe to send again.
}`;
}

/** Every option, with its default. */
export function optionsExample(contract: ExecutableContract): string {
  return `$client = new Client(getenv('SHOP_URL'), getenv('SHOP_API_KEY'), [
    'connect_timeout' => ${retryPolicy.connectTimeoutSeconds},    // seconds to connect
    'timeout' => ${retryPolicy.attemptTimeoutSeconds},           // seconds for one attempt in all
    'pace' => ${retryPolicy.courtesyIntervalSeconds},              // seconds between two requests to one site; 0 switches it off
    'max_retries' => ${retryPolicy.maxAttempts - 1},       // how many times an answer worth another attempt is sent again
    'max_wait' => ${retryPolicy.retryAfterCapSeconds},         // the longest ${contract.retryAfterHeader} waited; a longer one is given up at once
    'user_agent' => 'my-plugin/2.0',
    'plain_permalinks' => false, // true for a site without pretty permalinks (?rest_route=)
    'logger' => function (string $line) { error_log($line); }, // one line per request, never the key
]);`;
}

/** From inside a WordPress plugin: the HTTP API as the transport. */
export function wordPressExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  return `use ${phpNamespace}\\Client;
use ${phpNamespace}\\Transport\\WordPressTransport;

$client = new Client($shop_url, $shop_api_key, [
    'transport' => new WordPressTransport(), // wp_remote_post: the site's proxy, certificates and filters apply
]);
$result = $client->${methodName(action)}($subscription_id);`;
}

/** Against a local sandbox: its base URL and key. */
export function sandboxExample(contract: ExecutableContract, sandboxUrl: string, sandboxKey: string): string {
  const action = exampleAction(contract);
  return `$client = new Client(${phpString(sandboxUrl)}, ${phpString(sandboxKey)}, ['pace' => 0]);
$result = $client->${methodName(action)}($subscriptionId);`;
}
