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
import { detailGetterName, exceptionClassName, fixedExceptionClassName } from './exception-classes.ts';
import { phpZipName } from './package.ts';
import { attemptOutcomes, attemptReportMembers } from '../shared/attempt-report.ts';
import { exampleEnvironment, methodReference, type MethodReference } from '../shared/page-code.ts';
import { camelCaseName } from '../../lib/samples/client-libraries.ts';
import { phpNamespace, phpString, phpValue } from './php-source.ts';

/** The file the page saves the example in. */
export const phpExampleFile = 'pause.php';

const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;

/** Every method of the library, for the page's reference. */
export function phpMethodReference(contract: ExecutableContract): MethodReference[] {
  return methodReference(contract, (identifier) => methodName({ identifier }));
}

/** The action the example runs: the quickstart's, which pauses a subscription. */
export function exampleAction(contract: ExecutableContract): Action {
  const request = quickstartExamples(contract.model).request;
  const action = contract.action(String(request[contract.model.envelope.selector]));
  if (action === undefined) throw new Error('the quickstart example names no action of the model');
  return action;
}

/** The example's fields: the subscription, by the contract's name of it, from a PHP expression. */
function subjectFields(contract: ExecutableContract, expression: string): string {
  return `[${phpString(contract.model.envelope.subject)} => ${expression}]`;
}

/** Another action that takes only the subscription, which the fallback example sends by its name. */
export function fallbackAction(contract: ExecutableContract): Action {
  const example = exampleAction(contract);
  const { envelope } = contract.model;
  const fallback = contract.model.actions.find(
    (action) => action.identifier !== example.identifier && action.fields.every((field) => !field.required || [envelope.subject, envelope.selector, envelope.credential].includes(field.name)),
  );
  if (fallback === undefined) throw new Error('the contract has no other action that takes only the subscription');
  return fallback;
}

/** The zip's address on the site. */
export function phpDownloadUrl(contract: ExecutableContract, docsUrl: string): string {
  return `${docsUrl}/${toolsDownloadDirectory}/${phpZipName(contract.model.documentVersion)}`;
}

/**
 * The whole example script: reads the environment, runs the example's action, prints the answer.
 * An exception of the library, or the constructor's refusal of a site URL (such as a host without
 * its scheme), ends it with the class and the message rather than PHP's fatal error and trace.
 */
export function exampleScript(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const { result } = contract;
  const property = (member: string) => `$result->${camelCaseName(member)}`;
  return `<?php
require __DIR__ . '/vendor/autoload.php';

use ${phpNamespace}\\Client;
use ${phpNamespace}\\Exception\\ClientException;

foreach ([${[siteUrl, apiKey, subscriptionId].map((name) => phpString(name)).join(', ')}] as $name) {
    if (getenv($name) === false) {
        fwrite(STDERR, "Set $name first.\\n");
        exit(2);
    }
}
if (preg_match('/^[0-9]+$/', getenv(${phpString(subscriptionId)})) !== 1) {
    fwrite(STDERR, "${subscriptionId} is the subscription's ID, a whole number.\\n");
    exit(2);
}

try {
    $client = new Client(getenv(${phpString(siteUrl)}), getenv(${phpString(apiKey)}));
    $result = $client->${methodName(action)}(${subjectFields(contract, `(int) getenv(${phpString(subscriptionId)})`)});
    printf(
        "%s: %s -> %s (changed: %s)\\n",
        ${property(result.action)},
        ${property(result.previousStatus)},
        ${property(result.status)},
        ${property(result.changed)} ? 'yes' : 'no'
    );
    echo json_encode($result, JSON_PRETTY_PRINT), "\\n";
} catch (ClientException | \\InvalidArgumentException $error) {
    // A refusal, a wrong key, a throttled site, no answer, or a site URL without its scheme.
    fwrite(STDERR, get_class($error) . ': ' . $error->getMessage() . "\\n");
    exit(1);
}
`;
}

/** How to run it once the three variables are exported. */
export function exportedRunCommand(): string {
  return `php ${phpExampleFile}`;
}

/** How to run it: the three variables, with a visibly fake key. */
export function runCommand(siteExample: string): string {
  return `${siteUrl}=${siteExample} ${apiKey}=example-key-not-a-secret ${subscriptionId}=42 php ${phpExampleFile}`;
}

/** Reading a refusal: the 409's current status and allowed actions. */
export function conflictExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const conflict = exceptionClassName(String(contract.errors.transitionNotAllowed.status));
  const throttled = fixedExceptionClassName('throttled');
  const host = fixedExceptionClassName('host');
  const noAnswer = fixedExceptionClassName('noAnswer');
  const timeout = fixedExceptionClassName('timeout');
  return `use ${phpNamespace}\\Exception\\${conflict};
use ${phpNamespace}\\Exception\\${host};
use ${phpNamespace}\\Exception\\${noAnswer};
use ${phpNamespace}\\Exception\\${throttled};
use ${phpNamespace}\\Exception\\${timeout};

try {
    $result = $client->${methodName(action)}(${subjectFields(contract, '$subscriptionId')});
} catch (${conflict} $refused) {
    // The status does not accept the action: nothing changed.
    $current = $refused->${detailGetterName(contract.errors.currentStatusMember)}();
    $allowed = $refused->${detailGetterName(contract.errors.allowedActionsMember)}();
    printf("The subscription is %s; it accepts: %s\\n", $current, implode(', ', $allowed));
} catch (${throttled} $throttled) {
    // The site kept asking to slow down, or asked for a longer wait than max_wait.
    printf("Try again in %s s\\n", $throttled->getRetryAfter() ?? 'a while');
} catch (${host} $host) {
    // A firewall's or CDN's page, not the service's answer.
} catch (${noAnswer} $noAnswer) {
    // No answer after every attempt: a ${timeout}, or a ${fixedExceptionClassName('connection')}.
    // The action may have gone through; sending it again is safe.
}`;
}

/** Falling back to an action a refusal names, by its name, with send(): no switch from names to methods. */
export function fallbackExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const fallback = fallbackAction(contract);
  const conflict = exceptionClassName(String(contract.errors.transitionNotAllowed.status));
  return `use ${phpNamespace}\\Exception\\${conflict};

$fields = ${subjectFields(contract, '$subscriptionId')};
try {
    $result = $client->${methodName(action)}($fields);
} catch (${conflict} $refused) {
    // The refusal lists the actions the subscription accepts, by the names send() takes.
    $fallback = ${phpString(fallback.identifier)};
    if (!in_array($fallback, $refused->${detailGetterName(contract.errors.allowedActionsMember)}(), true)) {
        throw $refused;
    }
    $result = $client->send($fallback, $fields);
}`;
}

/** Every option, with its default. */
export function optionsExample(contract: ExecutableContract): string {
  return `$client = new Client(getenv(${phpString(siteUrl)}), getenv(${phpString(apiKey)}), [
    'connect_timeout' => ${retryPolicy.connectTimeoutSeconds},    // seconds to connect
    'timeout' => ${retryPolicy.attemptTimeoutSeconds},           // seconds for one attempt in all
    'pace' => ${retryPolicy.courtesyIntervalSeconds},              // seconds between two requests to one site; 0 switches it off
    'max_retries' => ${retryPolicy.maxAttempts - 1},       // how many times a request is sent again
    'max_wait' => ${retryPolicy.retryAfterCapSeconds},         // the longest ${contract.retryAfterHeader} waited; a longer one is given up at once
    'user_agent' => 'my-plugin/2.0',
    'plain_permalinks' => false, // true for a site without pretty permalinks (?rest_route=)
    // A line and the attempt's members per attempt, never the key; or a PSR-3 logger.
    'logger' => function (string $line, array $attempt) { error_log($line); },
]);`;
}

/** A logger given each attempt: the line and the shared members, each said in a comment. */
export function loggerExample(): string {
  const said: Record<(typeof attemptReportMembers)[number], string> = {
    action: "the action's name",
    attempt: '1 for the first attempt',
    outcome: attemptOutcomes.map((outcome) => `'${outcome}'`).join(', '),
    status: 'the HTTP status, or null without an answer',
    seconds: 'how long the attempt took',
    retry_in_seconds: 'the wait before the next attempt, or null after the last',
  };
  return `$client = new Client(getenv(${phpString(siteUrl)}), getenv(${phpString(apiKey)}), [
    'logger' => function (string $line, array $attempt) {
${attemptReportMembers.map((member) => `        // $attempt[${phpString(member)}]: ${said[member]}`).join('\n')}
        error_log($line);
    },
]);`;
}

/** Clients of one site pacing together: one Pace given to each. */
export function sharedPaceExample(): string {
  return `use ${phpNamespace}\\Pace;

$pace = new Pace(${retryPolicy.courtesyIntervalSeconds}.0);
$orders = new Client($shopUrl, $shopApiKey, ['pace' => $pace]);
$renewals = new Client($shopUrl, $shopApiKey, ['pace' => $pace]);`;
}

/** A shop's test replacing the client: PHPUnit's mock of the interface, which sends nothing and waits for nothing. */
export function fakeClientExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  const response = quickstartExamples(contract.model).response;
  return `use ${phpNamespace}\\ClientInterface;
use ${phpNamespace}\\Result;

// In a PHPUnit test: the code under test takes a ClientInterface, not a Client.
$client = $this->createMock(ClientInterface::class);
$client->expects($this->once())
    ->method(${phpString(methodName(action))})
    ->with(${subjectFields(contract, '42')})
    ->willReturn(new Result(${phpValue(response, '    ')}));`;
}

/** From inside a WordPress plugin: the HTTP API as the transport. */
export function wordPressExample(contract: ExecutableContract): string {
  const action = exampleAction(contract);
  return `use ${phpNamespace}\\Client;
use ${phpNamespace}\\Transport\\WordPressTransport;

$client = new Client($shop_url, $shop_api_key, [
    'transport' => new WordPressTransport(), // wp_remote_post: the site's proxy, certificates and filters apply
]);
$result = $client->${methodName(action)}(${subjectFields(contract, '$subscription_id')});`;
}

/** Against a local sandbox: its base URL and key. */
export function sandboxExample(contract: ExecutableContract, sandboxUrl: string, sandboxKey: string): string {
  const action = exampleAction(contract);
  return `$client = new Client(${phpString(sandboxUrl)}, ${phpString(sandboxKey)}, ['pace' => 0]);
$result = $client->${methodName(action)}(${subjectFields(contract, '$subscriptionId')});`;
}
