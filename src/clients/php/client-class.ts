/**
 * The PHP of the client: one method per action of the model with that action's fields, the
 * checks of each field's bounds before sending, the retry of a throttled request, the courtesy
 * pace, and the reading of every answer into a result or the exception of its status.
 */
import type { Action } from '../../lib/contract/model.ts';
import { plainPermalinkUrl } from '../../lib/contract/endpoint.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { errorCodeField } from '../../lib/contract/response-names.ts';
import { documentedErrors, exceptionClassName } from './exception-classes.ts';
import { firstSentence } from '../../lib/prose.ts';
import { sampleStatuses } from '../../lib/samples/sample-statuses.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { camelCaseName, clientMethodFields, clientMethodName } from '../../lib/samples/client-libraries.ts';
import { docComment, docLines, fieldRule, phpDocType, phpNamespace, phpString, phpType, phpValue } from './php-source.ts';

/** The fields a method takes: every field but the selector and the key, which the client fills in. */
export function methodFields(contract: ExecutableContract, action: Action) {
  return clientMethodFields(contract.model.envelope, action.fields);
}

/** The method an action is called by: `pause_subscription` → `pauseSubscription`. */
export function methodName(action: Pick<Action, 'identifier'>): string {
  return clientMethodName(action.identifier);
}

function parameter(field: ReturnType<typeof methodFields>[number]): string {
  const type = phpType(field);
  const name = `$${camelCaseName(field.name)}`;
  if (field.required) return type === undefined ? name : `${type} ${name}`;
  return type === undefined ? `${name} = null` : `${type.startsWith('?') ? type : `?${type}`} ${name} = null`;
}

function actionMethod(contract: ExecutableContract, action: Action): string {
  const fields = methodFields(contract, action);
  const transition = action.transition;
  const moves = transition.kind === 'fixed'
    ? `From ${transition.from.map((state) => `\`${state}\``).join(', ')} to \`${transition.to}\`; a repeat when the subscription is already \`${transition.to}\` answers with nothing changed.`
    : `To the status named in \`${transition.field}\`, along the moves the lifecycle allows.`;
  const errors = action.errors.map((error) => `@throws Exception\\${exceptionClassName(error.status)}${error.code === null ? ' when the retries do not outlast it' : ` ${error.code}`}: ${firstSentence(error.when.replace(/\s+/g, ' '))}`);
  const uniqueThrows = [...new Set(errors)];
  const doc = [
    ...docLines(`${action.title}. ${action.description}`),
    '',
    ...docLines(moves),
    ...(action.deprecated ? ['', '@deprecated the contract deprecates this action'] : []),
    '',
    ...fields.map((field) => `@param ${phpDocType(field)}${field.required ? '' : '|null'} $${camelCaseName(field.name)} ${docLines(field.description || field.name, 400).join(' ')}`),
    '',
    ...uniqueThrows.flatMap((line) => docLines(line, 400)),
    '@throws Exception\\InvalidFieldException a field outside its bounds, before anything is sent',
    '@throws Exception\\HostException an answer that is not the service\'s',
    '@throws Exception\\TransportException no answer',
  ];
  const values = fields.map((field) => `            ${phpString(field.name)} => $${camelCaseName(field.name)},`);
  return `${docComment(doc, '    ')}
    public function ${methodName(action)}(${fields.map(parameter).join(', ')}): Result
    {
        return $this->send(${phpString(action.identifier)}, [
${values.join('\n')}
        ]);
    }`;
}

export function clientClass(contract: ExecutableContract, packageVersion: string): string {
  const { model } = contract;
  const { envelope, endpoint } = model;
  const rules = Object.fromEntries(
    model.actions.map((action) => [action.identifier, Object.fromEntries(methodFields(contract, action).map((field) => [field.name, fieldRule(field)]))]),
  );
  const credential = envelope.sharedFields.find((field) => field.name === envelope.credential);
  const credentialRule = credential === undefined ? undefined : fieldRule(credential);
  const plainPath = plainPermalinkUrl(endpoint.urlPath) ?? endpoint.urlPath;
  const success = model.responses.find((response) => /^2/.test(response.status))?.status ?? '200';
  const errorClasses = Object.fromEntries(documentedErrors(contract).map((response) => [response.status, `Exception\\${exceptionClassName(response.status)}`]));
  const throttledClass = exceptionClassName(contract.throttled.status);
  return `<?php

declare(strict_types=1);

namespace ${phpNamespace};

use ${phpNamespace}\\Exception\\HostException;
use ${phpNamespace}\\Exception\\InvalidFieldException;
use ${phpNamespace}\\Exception\\ServiceException;
use ${phpNamespace}\\Exception\\${throttledClass};
use ${phpNamespace}\\Transport\\CurlTransport;
use ${phpNamespace}\\Transport\\Request;
use ${phpNamespace}\\Transport\\Response;
use ${phpNamespace}\\Transport\\Transport;

${docComment([
    ...docLines(`A client of one site's endpoint, ${endpoint.method} ${endpoint.urlTemplate}: ${endpoint.summary}. One method per action, generated from the OpenAPI document version ${model.documentVersion}.`),
    '',
    ...docLines(`Options, with the project's retry policy as their defaults: connect_timeout and timeout (seconds, ${retryPolicy.connectTimeoutSeconds} and ${retryPolicy.attemptTimeoutSeconds}), pace (seconds between two requests to one site, ${retryPolicy.courtesyIntervalSeconds}; 0 switches it off), max_retries (how many times an answer worth another attempt is sent again, ${retryPolicy.maxAttempts - 1}), max_wait (the longest wait a ${contract.retryAfterHeader} may ask for that is waited, ${retryPolicy.retryAfterCapSeconds} seconds), user_agent, transport (a Transport; curl by default), plain_permalinks (true for a site without pretty permalinks) and logger (a callable given one line per request, never the key).`),
    '',
    ...docLines(`Sent again: ${sampleStatuses(model.responses).retried.join(', ')}, after the wait ${contract.retryAfterHeader} asks for, or else after a backoff of ${retryPolicy.backoffBaseSeconds} second doubling up to ${retryPolicy.backoffMaxSeconds}, of which ${Math.round((1 - retryPolicy.backoffFixedShare) * 100)} % is random.`),
  ])}
final class Client
{
    public const VERSION = ${phpString(packageVersion)};

    /** The endpoint's path below the site's base URL, and the same route for a site without pretty permalinks. */
    public const ENDPOINT_PATH = ${phpString(endpoint.urlPath)};
    public const PLAIN_PERMALINK_PATH = ${phpString(plainPath)};

    /** What each action takes besides the key, and what the contract bounds it by. */
    private const FIELDS = ${phpValue(rules, '    ')};

    private const CREDENTIAL_RULE = ${phpValue(credentialRule ?? null, '    ')};

    private const ERROR_CLASSES = ${phpValue(errorClasses, '    ')};

    /** The statuses worth another attempt: the throttled one, the service's own failure, a host's transient answers. */
    private const RETRIED = ${phpValue(sampleStatuses(model.responses).retried)};

    private const BACKOFF = ['base' => ${retryPolicy.backoffBaseSeconds}, 'max' => ${retryPolicy.backoffMaxSeconds}, 'fixed_share' => ${retryPolicy.backoffFixedShare}];

    private const DEFAULTS = [
        'connect_timeout' => ${retryPolicy.connectTimeoutSeconds},
        'timeout' => ${retryPolicy.attemptTimeoutSeconds},
        'pace' => ${retryPolicy.courtesyIntervalSeconds},
        'max_retries' => ${retryPolicy.maxAttempts - 1},
        'max_wait' => ${retryPolicy.retryAfterCapSeconds},
        'user_agent' => null,
        'transport' => null,
        'plain_permalinks' => false,
        'logger' => null,
    ];

    /** @var array<string, float> when each site was last sent a request, for the courtesy pace */
    private static $lastSentAt = [];

    /** @var string */
    private $siteUrl;
    /** @var string */
    private $endpointUrl;
    /** @var string */
    private $apiKey;
    /** @var array<string, mixed> */
    private $options;
    /** @var Transport */
    private $transport;

    /**
     * @param string $siteUrl the site's base URL, scheme included: https://shop.example or https://example.com/shop
     * @param string $apiKey the site's API key; kept out of every message, log line and dump
     * @param array<string, mixed> $options see the class's description
     */
    public function __construct(
        string $siteUrl,
        #[\\SensitiveParameter]
        string $apiKey,
        array $options = []
    ) {
        $this->apiKey = $apiKey;
        // PHP before 8.2 shows a stack trace's arguments as they are when it is made.
        $apiKey = '(not shown)';
        $this->checkKey();
        $unknown = array_diff(array_keys($options), array_keys(self::DEFAULTS));
        if ($unknown !== []) {
            throw new \\InvalidArgumentException(sprintf('Unknown option %s; the options are %s.', implode(', ', $unknown), implode(', ', array_keys(self::DEFAULTS))));
        }
        $this->options = array_merge(self::DEFAULTS, $options);
        $parts = parse_url($siteUrl);
        if ($parts === false || !isset($parts['scheme'], $parts['host']) || !in_array(strtolower($parts['scheme']), ['http', 'https'], true)) {
            throw new \\InvalidArgumentException(sprintf('The site URL must start with http:// or https:// and name a host, got "%s".', $siteUrl));
        }
        if (isset($parts['query']) || isset($parts['fragment'])) {
            throw new \\InvalidArgumentException('The site URL is the base URL only, without ?query or #fragment; pass plain_permalinks => true for a site without pretty permalinks.');
        }
        $this->siteUrl = rtrim($siteUrl, '/');
        $this->endpointUrl = $this->siteUrl . ($this->options['plain_permalinks'] ? self::PLAIN_PERMALINK_PATH : self::ENDPOINT_PATH);
        $transport = $this->options['transport'] ?? new CurlTransport();
        if (!$transport instanceof Transport) {
            throw new \\InvalidArgumentException('The transport option must implement ' . Transport::class . '.');
        }
        $this->transport = $transport;
    }

${model.actions.map((action) => actionMethod(contract, action)).join('\n\n')}

    /**
     * Sends any action by its identifier, one a later release adds included: the fields the
     * contract names for a known action are checked; the key is added.
     *
     * @param array<string, mixed> $fields the action's fields besides the key, by the contract's names
     */
    public function send(string $action, array $fields): Result
    {
        $this->checkFields($action, $fields);
        $body = array_merge([${phpString(envelope.selector)} => $action, ${phpString(envelope.credential)} => $this->apiKey], array_filter($fields, static function ($value): bool {
            return $value !== null;
        }));
        $json = json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        if ($json === false) {
            throw new \\InvalidArgumentException('The fields cannot be sent as JSON: ' . json_last_error_msg());
        }
        $headers = [
            'Content-Type' => 'application/json',
            'Accept' => 'application/json',
            'User-Agent' => $this->options['user_agent'] ?? ('subscription-lifecycle-client-php/' . self::VERSION . ' PHP/' . PHP_VERSION),
        ];
        $request = new Request($this->endpointUrl, $headers, $json, (float) $this->options['connect_timeout'], (float) $this->options['timeout']);
        return $this->exchange($action, $request);
    }

    /** The site's base URL, as given. */
    public function siteUrl(): string
    {
        return $this->siteUrl;
    }

    /** The endpoint's full URL. */
    public function endpointUrl(): string
    {
        return $this->endpointUrl;
    }

    /** @return array<string, mixed> what var_dump() and print_r() show: never the key */
    public function __debugInfo(): array
    {
        $options = $this->options;
        $options['transport'] = get_class($this->transport);
        $options['logger'] = $options['logger'] === null ? null : 'callable';
        return ['siteUrl' => $this->siteUrl, 'endpointUrl' => $this->endpointUrl, 'apiKey' => '(not shown)', 'options' => $options];
    }

    private function exchange(string $action, Request $request): Result
    {
        $retries = 0;
        while (true) {
            $this->keepPace();
            $started = microtime(true);
            $response = $this->transport->send($request);
            $this->log(sprintf('%s %s %s: %d in %d ms', ${phpString(endpoint.method)}, $this->endpointUrl, $action, $response->status(), (int) round((microtime(true) - $started) * 1000)));
            if (!in_array($response->status(), self::RETRIED, true)) {
                return $this->read($response);
            }
            $header = $response->header(RetryAfter::HEADER);
            $asked = $header === null ? null : RetryAfter::seconds($header);
            $wait = $asked ?? $this->backoff($retries + 1);
            $tooLong = $asked !== null && $asked > (float) $this->options['max_wait'];
            if ($retries >= (int) $this->options['max_retries'] || $tooLong) {
                if ($response->status() !== ${Number(contract.throttled.status)}) {
                    return $this->read($response);
                }
                throw new ${throttledClass}($asked, $header, $retries + 1, sprintf(
                    '%d: the site throttled the request %d time(s)%s; %s',
                    $response->status(),
                    $retries + 1,
                    $header === null ? '' : sprintf(' (%s: %s)', RetryAfter::HEADER, $header),
                    $tooLong
                        ? sprintf('the wait asked for, %s s, is longer than max_wait (%s s).', $asked, $this->options['max_wait'])
                        : sprintf('max_retries (%d) is spent.', $this->options['max_retries'])
                ));
            }
            $this->log(sprintf('answered %d: waiting %.3f s before retry %d', $response->status(), $wait, $retries + 1));
            usleep((int) round($wait * 1000000));
            $retries += 1;
        }
    }

    private function read(Response $response): Result
    {
        $decoded = json_decode($response->body(), true);
        if ($response->status() === ${Number(success)} && is_array($decoded) && ($decoded[${phpString(contract.result.successFlag)}] ?? null) === true) {
            return new Result($decoded);
        }
        if (is_array($decoded) && isset($decoded[${phpString(errorCodeField)}]) && is_string($decoded[${phpString(errorCodeField)}]) && $response->status() >= 400) {
            $class = self::ERROR_CLASSES[(string) $response->status()] ?? null;
            if ($class !== null) {
                $class = __NAMESPACE__ . '\\\\' . $class;
                throw new $class($response->status(), $decoded);
            }
            throw new ServiceException($response->status(), $decoded);
        }
        throw new HostException($response->status(), (string) $response->header('content-type'), $response->body());
    }

    /** The nominal wait after the n-th failed attempt, doubling up to its bound, part of it random. */
    private function backoff(int $failedAttempt): float
    {
        $nominal = min((float) self::BACKOFF['max'], self::BACKOFF['base'] * (2 ** ($failedAttempt - 1)));
        $share = (float) self::BACKOFF['fixed_share'];
        return $nominal * ($share + (1 - $share) * mt_rand() / mt_getrandmax());
    }

    private function keepPace(): void
    {
        $pace = (float) $this->options['pace'];
        if ($pace <= 0) {
            return;
        }
        $last = self::$lastSentAt[$this->siteUrl] ?? null;
        $now = microtime(true);
        if ($last !== null && $now - $last < $pace) {
            usleep((int) round(($pace - ($now - $last)) * 1000000));
        }
        self::$lastSentAt[$this->siteUrl] = microtime(true);
    }

    private function log(string $line): void
    {
        if (is_callable($this->options['logger'])) {
            ($this->options['logger'])($line);
        }
    }

    private function checkKey(): void
    {
        if (self::CREDENTIAL_RULE !== null) {
            $this->checkValue(${phpString(envelope.credential)}, $this->apiKey, self::CREDENTIAL_RULE, false);
        }
    }

    /**
     * @param array<string, mixed> $fields
     */
    private function checkFields(string $action, array $fields): void
    {
        $rules = self::FIELDS[$action] ?? null;
        if ($rules === null) {
            return;
        }
        foreach ($rules as $name => $rule) {
            $value = $fields[$name] ?? null;
            if ($value === null) {
                if ($rule['required']) {
                    throw new InvalidFieldException($name, 'required', sprintf('%s is required by %s.', $name, $action));
                }
                continue;
            }
            $this->checkValue($name, $value, $rule, true);
        }
    }

    /**
     * @param mixed $value
     * @param array<string, mixed> $rule
     */
    private function checkValue(string $name, $value, array $rule, bool $showValue): void
    {
        $types = ['string' => 'is_string', 'integer' => 'is_int', 'number' => 'is_numeric', 'boolean' => 'is_bool', 'array' => 'is_array', 'object' => 'is_array'];
        $type = (string) $rule['type'];
        $base = strpos($type, 'array') === 0 ? 'array' : $type;
        if (isset($types[$base]) && !($types[$base])($value)) {
            throw new InvalidFieldException($name, $type, sprintf('%s must be of type %s, got %s.', $name, $type, gettype($value)));
        }
        foreach ($rule['bounds'] as $bound) {
            $limit = $bound['limit'] ?? null;
            $length = is_string($value) ? (function_exists('mb_strlen') ? mb_strlen($value, 'UTF-8') : strlen((string) preg_replace('/[\\\\x80-\\\\xBF]/', '', $value))) : null;
            $count = is_array($value) ? count($value) : null;
            switch ($bound['keyword']) {
                case 'minimum': $broken = is_numeric($value) && $value < $limit; break;
                case 'maximum': $broken = is_numeric($value) && $value > $limit; break;
                case 'exclusiveMinimum': $broken = is_numeric($value) && $value <= $limit; break;
                case 'exclusiveMaximum': $broken = is_numeric($value) && $value >= $limit; break;
                case 'minLength': $broken = $length !== null && $length < $limit; break;
                case 'maxLength': $broken = $length !== null && $length > $limit; break;
                case 'minItems': $broken = $count !== null && $count < $limit; break;
                case 'maxItems': $broken = $count !== null && $count > $limit; break;
                case 'enum':
                case 'const': $broken = !in_array($value, $bound['values'], true); break;
                case 'pattern': $broken = is_string($value) && preg_match('/' . str_replace('/', '\\\\/', (string) $bound['values'][0]) . '/u', $value) !== 1; break;
                default: $broken = false;
            }
            if ($broken) {
                $shown = $showValue ? sprintf(', got %s', is_scalar($value) ? var_export($value, true) : gettype($value)) : '';
                throw new InvalidFieldException($name, $bound['label'], sprintf('%s must be %s%s.', $name, $bound['label'], $shown));
            }
        }
    }
}
`;
}
