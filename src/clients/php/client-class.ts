/**
 * The PHP of the client that the contract decides: one method per action of the model, taking its
 * fields as one array with a PHPDoc array shape, the interface a shop's tests implement, and the
 * description of the contract's facts the runtime (src/clients/php/runtime/) acts on: the fields
 * and their bounds, the statuses, the error body's members and the class of each documented
 * status, the retry policy. The retries, the pace and the reading of answers are the runtime's.
 */
import { claimMethodNames } from '../shared/method-names.ts';
import type { Action, Field } from '../../lib/contract/model.ts';
import { plainPermalinkUrl } from '../../lib/contract/endpoint.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { firstSentence } from '../../lib/prose.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { clientMethodFields, clientMethodName } from '../../lib/samples/client-libraries.ts';
import { documentedErrors, exceptionClassName, fixedExceptionClassName } from './exception-classes.ts';
import { arrayShapeParam, docComment, docLines, fieldRule, generatedFileStart, phpDocType, phpNamespace, phpString, phpValue } from './php-source.ts';
import { contractFacts } from '../shared/contract-facts.ts';
import { boundPhrase, callerFields, checkedConstraints } from '../shared/field-rules.ts';

/** The members of Client besides the actions' methods: an action named like one of them could not have its method. */
export const clientMembers = ['send', 'siteUrl', 'endpointUrl', '__construct', '__debugInfo', '__serialize', '__unserialize'];

/** The fields a method takes: every field but the selector and the key, which the client fills in. */
export function methodFields(contract: ExecutableContract, action: Action): Field[] {
  return clientMethodFields(contract.model.envelope, action.fields);
}

/** The method an action is called by: `pause_subscription` → `pauseSubscription`. */
export function methodName(action: Pick<Action, 'identifier'>): string {
  return clientMethodName(action.identifier);
}

/** The user agent's name and version, before ` PHP/<version>`. */
export const userAgentName = 'subscription-lifecycle-client-php';

/** A field as the method's doc comment lists it: its name, whether it is required, its type and bounds, its description. */
function fieldLine(field: Field): string {
  const bounds = checkedConstraints(field).map(boundPhrase);
  const facts = [field.required ? 'required' : 'optional', phpDocType(field), ...bounds].join(', ');
  const description = docLines(field.description, 400).join(' ');
  return `- ${field.name} (${facts})${description === '' ? '' : `: ${description}`}${field.deprecated ? ' Deprecated by the contract.' : ''}`;
}

/** The doc comment of an action's method, the same on the interface and on the client. */
function actionDoc(contract: ExecutableContract, action: Action): string[] {
  const fields = methodFields(contract, action);
  const transition = action.transition;
  const moves = transition.kind === 'fixed'
    ? `From ${transition.from.map((state) => `\`${state}\``).join(', ')} to \`${transition.to}\`; a repeat when the subscription is already \`${transition.to}\` answers with nothing changed.`
    : `To the status named in \`${transition.field}\`, along the moves the lifecycle allows.`;
  const throttled = String(contract.throttled.status);
  const errors = action.errors
    .filter((error) => error.status !== throttled)
    .map((error) => `@throws Exception\\${exceptionClassName(error.status)}${error.code === null ? '' : ` ${error.code}`}: ${firstSentence(error.when.replace(/\s+/g, ' '))}`);
  return [
    ...docLines(`${action.title}. ${action.description}`),
    '',
    ...docLines(moves),
    ...(action.deprecated ? ['', '@deprecated the contract deprecates this action'] : []),
    '',
    `Fields, by the contract's names (a field a later release adds is sent as it is, for the service to judge):`,
    ...fields.flatMap((field) => docLines(fieldLine(field))),
    '',
    ...arrayShapeParam(fields),
    '',
    ...[...new Set(errors)].flatMap((line) => docLines(line)),
    `@throws Exception\\${fixedExceptionClassName('invalidField')} a field refused before anything is sent`,
    `@throws Exception\\${fixedExceptionClassName('throttled')} the site kept asking to slow down, or asked to wait longer than max_wait`,
    `@throws Exception\\${fixedExceptionClassName('host')} an answer that is not the service's`,
    `@throws Exception\\${fixedExceptionClassName('noAnswer')} no answer after every attempt: a timeout or a failed connection`,
  ];
}

const sendDoc = (contract: ExecutableContract) => [
  'Sends any action by its identifier, one a later release adds included, with its fields by the',
  "contract's names: the fields of an action this release knows are checked as its method checks",
  'them; the key is added. The method of each action calls it.',
  '',
  `@param string $action the action's identifier as the contract writes it, such as ${phpString(contract.model.actions[0]?.identifier ?? '')}`,
  '@param array<string, mixed> $fields',
  '',
  `@throws Exception\\${fixedExceptionClassName('base')} every error this package throws implements it`,
];

function checkMethodNames(contract: ExecutableContract): void {
  claimMethodNames(contract.model.actions, { methodName: (identifier) => methodName({ identifier }), allowed: (name) => !clientMembers.includes(name) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name), shown: (name) => `the PHP method ${name}()` });
}

/** What the runtime's ClientCore acts on: every fact of the contract it needs, and the policy's numbers. */
export function clientDescription(contract: ExecutableContract) {
  const { model } = contract;
  const facts = contractFacts(contract);
  const credential = model.envelope.sharedFields.find((field) => field.name === facts.credential);
  return {
    method: facts.method,
    endpoint_path: facts.endpointPath,
    plain_permalink_path: plainPermalinkUrl(facts.endpointPath) ?? facts.endpointPath,
    selector: facts.selector,
    credential: facts.credential,
    credential_rule: credential === undefined ? null : fieldRule(contract, credential),
    actions: Object.fromEntries(model.actions.map((action) => [action.identifier, Object.fromEntries(methodFields(contract, action).map((field) => [field.name, fieldRule(contract, field)]))])),
    shared_fields: Object.fromEntries(callerFields(contract, model.envelope.sharedFields).filter((field) => field.required).map((field) => [field.name, fieldRule(contract, field)])),
    success_status: facts.successStatus,
    throttled_status: facts.throttledStatus,
    service_failure_status: facts.serviceFailureStatus,
    transient_host_statuses: facts.transientHostStatuses,
    retry_after_header: facts.retryAfterHeader,
    error_body: { code_member: facts.errorBody.code, message_member: facts.errorBody.message, data_member: facts.errorBody.data },
    error_classes: Object.fromEntries(documentedErrors(contract).map((response) => [response.status, `${phpNamespace}\\Exception\\${exceptionClassName(response.status)}`])),
    policy: {
      connect_timeout: retryPolicy.connectTimeoutSeconds,
      timeout: retryPolicy.attemptTimeoutSeconds,
      pace: retryPolicy.courtesyIntervalSeconds,
      max_attempts: retryPolicy.maxAttempts,
      max_wait: retryPolicy.retryAfterCapSeconds,
      backoff_base: retryPolicy.backoffBaseSeconds,
      backoff_max: retryPolicy.backoffMaxSeconds,
      backoff_fixed_share: retryPolicy.backoffFixedShare,
    },
    user_agent: `${userAgentName}/${model.documentVersion}`,
  };
}

/** ClientInterface: every action's method and send(), which Client implements and a shop's test double can. */
export function clientInterface(contract: ExecutableContract): string {
  checkMethodNames(contract);
  const methods = contract.model.actions.map((action) => `${docComment(actionDoc(contract, action), '    ')}
    public function ${methodName(action)}(array $fields): Result;`);
  return `${generatedFileStart(contract.model.documentVersion, 'src/clients/php/client-class.ts', phpNamespace)}
${docComment([
    ...docLines(`What a client of the endpoint can do: one method per action of the OpenAPI document ${contract.model.documentVersion}, and send() for any action. Client implements it; a shop's tests give their code a fake that implements it instead, which sends nothing and waits for nothing.`),
  ])}
interface ClientInterface
{
${methods.join('\n\n')}

${docComment(sendDoc(contract), '    ')}
    public function send(string $action, array $fields): Result;
}
`;
}

/** The class a caller makes: `new Client($siteUrl, $apiKey)`. */
export const phpClientClassName = 'Client';

export function clientClass(contract: ExecutableContract, packageVersion: string): string {
  checkMethodNames(contract);
  const { model } = contract;
  const { endpoint } = model;
  const description = clientDescription(contract);
  const methods = model.actions.map((action) => `${docComment(actionDoc(contract, action), '    ')}
    public function ${methodName(action)}(array $fields): Result
    {
        return $this->send(${phpString(action.identifier)}, $fields);
    }`);
  return `${generatedFileStart(model.documentVersion, 'src/clients/php/client-class.ts', phpNamespace, [`${phpNamespace}\\Internal\\ClientCore`, `${phpNamespace}\\Internal\\Secret`])}
${docComment([
    ...docLines(`A client of one site's endpoint, ${endpoint.method} ${endpoint.urlTemplate}: ${endpoint.summary}. One method per action, generated from the OpenAPI document version ${model.documentVersion}, each taking the action's fields as one array by the contract's names, and send() for any action.`),
    '',
    ...docLines(`Options, with the project's retry policy as their defaults: connect_timeout and timeout (seconds, ${retryPolicy.connectTimeoutSeconds} and ${retryPolicy.attemptTimeoutSeconds}), pace (seconds between two requests to one site, ${retryPolicy.courtesyIntervalSeconds}, 0 switches it off; or a Pace shared with other clients), max_retries (how many times a request is sent again, ${retryPolicy.maxAttempts - 1}), max_wait (the longest wait a ${contract.retryAfterHeader} may ask for that is waited, ${retryPolicy.retryAfterCapSeconds} seconds), user_agent, transport (a Transport; curl by default), plain_permalinks (true for a site without pretty permalinks) and logger (a callable given a line and the attempt's members, or an object with a log() or info() method; never the key).`),
    '',
    ...docLines(`Sent again: a timeout, a failed connection, the service's ${description.service_failure_status} and a host's ${description.transient_host_statuses.join(', ')} after a backoff of ${retryPolicy.backoffBaseSeconds} second doubling up to ${retryPolicy.backoffMaxSeconds}, of which ${Math.round((1 - retryPolicy.backoffFixedShare) * 100)} % is random; a ${description.throttled_status} after the wait ${contract.retryAfterHeader} asks for, or the backoff.`),
  ])}
final class ${phpClientClassName} implements ClientInterface
{
    public const VERSION = ${phpString(packageVersion)};

    /** The endpoint's path below the site's base URL, and the same route for a site without pretty permalinks. */
    public const ENDPOINT_PATH = ${phpString(description.endpoint_path)};
    public const PLAIN_PERMALINK_PATH = ${phpString(description.plain_permalink_path)};

    /** The contract's facts the runtime acts on. */
    private const DESCRIPTION = ${phpValue(description, '    ')};

    /** @var ClientCore */
    private $core;

    /**
     * The key is taken into a Secret before anything can throw, so that no trace, message or dump
     * shows it on any PHP version, without relying on 8.2's SensitiveParameter (whose placeholder
     * serialize() refuses); the parameters have no declared types for the same reason (a TypeError
     * would be thrown with them in its trace), and each is checked with a clear message instead.
     *
     * @param string $siteUrl the site's base URL, scheme included: https://shop.example or https://example.com/shop
     * @param string $apiKey the site's API key; kept out of every message, log line, trace and dump
     * @param array<string, mixed> $options see the class's description
     * @throws \\InvalidArgumentException a site URL, key or option the client cannot use
     */
    public function __construct($siteUrl, $apiKey, $options = [])
    {
        $this->core = new ClientCore(self::DESCRIPTION, $siteUrl, Secret::take($apiKey), $options);
    }

${methods.join('\n\n')}

${docComment(sendDoc(contract), '    ')}
    public function send(string $action, array $fields): Result
    {
        return new Result($this->core->send($action, $fields));
    }

    /** The site's base URL, as given. */
    public function siteUrl(): string
    {
        return $this->core->siteUrl();
    }

    /** The endpoint's full URL. */
    public function endpointUrl(): string
    {
        return $this->core->endpointUrl();
    }

    /** @return array<string, mixed> what var_dump() and print_r() show: never the key */
    public function __debugInfo(): array
    {
        return $this->core->__debugInfo();
    }

    /** @return array<string, mixed> what serialize() writes: what var_dump() shows, never the key */
    public function __serialize(): array
    {
        return $this->core->__debugInfo();
    }

    /** @param array<string, mixed> $data */
    public function __unserialize(array $data): void
    {
        throw new \\LogicException('A client is not restored by unserialize(): make a new one with its key.');
    }
}
`;
}
