<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Internal/ClientCore.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Internal;

use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\HostException;
use SubscriptionLifecycle\Client\Exception\InvalidFieldException;
use SubscriptionLifecycle\Client\Exception\NoAnswerException;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Exception\ThrottledException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;
use SubscriptionLifecycle\Client\Pace;
use SubscriptionLifecycle\Client\RetryAfter;
use SubscriptionLifecycle\Client\Transport\CurlTransport;
use SubscriptionLifecycle\Client\Transport\Request;
use SubscriptionLifecycle\Client\Transport\Response;
use SubscriptionLifecycle\Client\Transport\Transport;

/**
 * The part of the client that is the same whatever the contract says, as the TypeScript client's
 * runtime is: the endpoint's URL from a site's base URL, the options, the courtesy pace, the
 * attempts with their timeout, Retry-After and backoff, every attempt reported to the logger, and
 * the answer read into its members or an exception. The generated Client hands it the contract's
 * facts (its DESCRIPTION) and holds the key only as a Secret.
 *
 * @internal
 */
final class ClientCore
{
    /** @var array<string, mixed> the contract's facts, as the generated Client describes them */
    private $description;
    /** @var Secret */
    private $apiKey;
    /** @var string */
    private $siteUrl;
    /** @var string */
    private $endpointUrl;
    /** @var array<string, mixed> */
    private $options;
    /** @var Transport */
    private $transport;
    /** @var Pace */
    private $pace;
    /** @var (\Closure(string, string, array<string, mixed>): void)|null */
    private $logger;

    /**
     * @param array<string, mixed> $description
     * @param mixed $siteUrl the site's base URL, checked here
     * @param mixed $options checked here, so that a wrong one is a clear error and never a TypeError
     */
    public function __construct(array $description, $siteUrl, Secret $apiKey, $options)
    {
        $this->description = $description;
        $this->apiKey = $apiKey;
        $this->checkKey();
        if (!is_array($options)) {
            throw new \InvalidArgumentException(sprintf('The options are an array; got %s.', gettype($options)));
        }
        $defaults = $this->defaults();
        $unknown = array_diff(array_keys($options), array_keys($defaults));
        if ($unknown !== []) {
            throw new \InvalidArgumentException(sprintf(
                'Unknown option %s; the options are %s.',
                Text::excerpt(implode(', ', $unknown), 200),
                implode(', ', array_keys($defaults))
            ));
        }
        $this->options = array_merge($defaults, $options);
        foreach (['connect_timeout', 'timeout', 'max_wait'] as $seconds) {
            $this->options[$seconds] = self::seconds($seconds, $this->options[$seconds]);
        }
        $retries = $this->options['max_retries'];
        if (!is_int($retries) || $retries < 0) {
            throw new \InvalidArgumentException(
                sprintf('The option max_retries is a whole number, 0 or more; got %s.', Text::described($retries))
            );
        }
        if ($this->options['user_agent'] !== null && !is_string($this->options['user_agent'])) {
            throw new \InvalidArgumentException('The option user_agent is a string.');
        }
        $this->siteUrl = self::baseUrlOf($siteUrl);
        $path = $this->options['plain_permalinks']
            ? $description['plain_permalink_path']
            : $description['endpoint_path'];
        $this->endpointUrl = $this->siteUrl . $path;
        $transport = $this->options['transport'] ?? new CurlTransport();
        if (!$transport instanceof Transport) {
            throw new \InvalidArgumentException('The transport option must implement ' . Transport::class . '.');
        }
        $this->transport = $transport;
        $pace = $this->options['pace'];
        $this->pace = $pace instanceof Pace ? $pace : new Pace(self::seconds('pace', $pace));
        $this->logger = self::logger($this->options['logger']);
    }

    /** @return array<string, mixed> every option with its default, from the retry policy */
    private function defaults(): array
    {
        $policy = $this->description['policy'];
        return [
            'connect_timeout' => $policy['connect_timeout'],
            'timeout' => $policy['timeout'],
            'pace' => $policy['pace'],
            'max_retries' => $policy['max_attempts'] - 1,
            'max_wait' => $policy['max_wait'],
            'user_agent' => null,
            'transport' => null,
            'plain_permalinks' => false,
            'logger' => null,
        ];
    }

    public function siteUrl(): string
    {
        return $this->siteUrl;
    }

    public function endpointUrl(): string
    {
        return $this->endpointUrl;
    }

    /**
     * Checks the fields, then sends the action until it succeeds, fails for good, or the attempts
     * run out, and returns the answer's members.
     *
     * @param array<string, mixed> $fields
     * @return array<string, mixed>
     */
    public function send(string $action, array $fields): array
    {
        if ($action === '') {
            throw new \InvalidArgumentException('The action is a non-empty string.');
        }
        $description = $this->description;
        FieldCheck::check($action, $description['actions'][$action] ?? $description['shared_fields'], $fields);
        $headers = [
            'Content-Type' => 'application/json',
            'Accept' => 'application/json',
            'User-Agent' => $this->options['user_agent'] ?? ($description['user_agent'] . ' PHP/' . PHP_VERSION),
        ];
        $request = new Request(
            $description['method'],
            $this->endpointUrl,
            $headers,
            $this->body($action, $fields, $this->apiKey),
            $this->options['connect_timeout'],
            $this->options['timeout']
        );
        return $this->attempts($action, $request);
    }

    /**
     * The JSON body, the key in it, held as a Secret from the moment it exists. A field given as
     * null whose type has no null is not sent: PHP has no "not given" but a missing key or null.
     *
     * @param array<string, mixed> $fields
     */
    private function body(string $action, array $fields, Secret $apiKey): Secret
    {
        $rules = $this->description['actions'][$action] ?? [];
        $given = array_filter($fields, static function ($value, $name) use ($rules): bool {
            return $value !== null || in_array('null', $rules[$name]['types'] ?? [], true);
        }, ARRAY_FILTER_USE_BOTH);
        $credential = (string) $this->description['credential'];
        unset($given[$credential]);
        $given[$this->description['selector']] = $action;
        // The fields are encoded without the key: a field's jsonSerialize() may throw, and the trace
        // of that holds json_encode()'s argument. The key alone is a string, whose encoding cannot throw.
        $json = json_encode($given, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        if ($json === false) {
            throw new \InvalidArgumentException(
                sprintf('%s: the fields cannot be sent as JSON (%s).', $action, json_last_error_msg())
            );
        }
        $key = json_encode($apiKey->reveal(), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        if ($key === false) {
            throw new \InvalidArgumentException(sprintf('%s: the API key is not UTF-8 text.', $credential));
        }
        $body = '{' . json_encode($credential) . ':' . $key . ',' . substr($json, 1);
        return Secret::take($body);
    }

    /** @return array<string, mixed> */
    private function attempts(string $action, Request $request): array
    {
        $description = $this->description;
        $maxAttempts = $this->options['max_retries'] + 1;
        for ($attempt = 1;; $attempt++) {
            $this->pace->take($this->endpointUrl);
            $started = microtime(true);
            try {
                $response = $this->transport->send($request);
            } catch (NoAnswerException $failure) {
                $timedOut = $failure instanceof TimeoutException;
                $last = $attempt >= $maxAttempts;
                $wait = $last ? null : $this->backoff($attempt);
                $this->report($action, $attempt, $timedOut ? 'timeout' : 'connection', null, $started, $wait);
                if ($wait === null) {
                    throw $this->noAnswer($failure, $attempt);
                }
                $this->pace->holdBack($this->endpointUrl, $wait);
                continue;
            }
            $status = $response->status();
            $last = $attempt >= $maxAttempts;
            $members = self::jsonObject($response);
            if ($status === $description['success_status'] && $members !== null) {
                $this->report($action, $attempt, 'answered', $status, $started, null);
                return $members;
            }
            if ($status === $description['throttled_status']) {
                $header = $response->header($description['retry_after_header']);
                $asked = $header === null ? null : RetryAfter::seconds($header);
                $tooLong = $asked !== null && $asked > $this->options['max_wait'];
                $wait = $tooLong || $last ? null : ($asked ?? $this->backoff($attempt));
                $this->report($action, $attempt, 'answered', $status, $started, $wait);
                if ($wait === null) {
                    throw $this->throttled($response, $header, $asked, $attempt, $tooLong);
                }
                $this->pace->holdBack($this->endpointUrl, $wait);
                continue;
            }
            $code = $members[$description['error_body']['code_member']] ?? null;
            $fromService = is_string($code);
            $retried = $fromService
                ? $status === $description['service_failure_status']
                : in_array($status, $description['transient_host_statuses'], true);
            $wait = $retried && !$last ? $this->backoff($attempt) : null;
            $this->report($action, $attempt, 'answered', $status, $started, $wait);
            if ($wait !== null) {
                $this->pace->holdBack($this->endpointUrl, $wait);
                continue;
            }
            if ($fromService && $members !== null) {
                throw $this->serviceError($status, (string) $code, $members);
            }
            throw new HostException(
                $status,
                (string) $response->header('content-type'),
                $response->body(),
                $response->header('location')
            );
        }
    }

    /** @param array<string, mixed> $members */
    private function serviceError(int $status, string $code, array $members): ServiceException
    {
        $names = $this->description['error_body'];
        $message = $members[$names['message_member']] ?? '';
        $data = $members[$names['data_member']] ?? [];
        $class = $this->description['error_classes'][(string) $status] ?? ServiceException::class;
        return new $class($status, $code, is_string($message) ? $message : '', is_array($data) ? $data : [], $members);
    }

    private function throttled(
        Response $response,
        ?string $header,
        ?float $asked,
        int $attempt,
        bool $tooLong
    ): ThrottledException {
        $named = $header === null
            ? ''
            : sprintf(' (%s: %s)', $this->description['retry_after_header'], Text::excerpt($header, 100));
        $reason = $tooLong
            ? sprintf(
                'the site asks to wait %s s%s, longer than this client\'s bound of %s s (max_wait): try again later',
                $asked,
                $named,
                $this->options['max_wait']
            )
            : sprintf(
                'still throttled after %d attempt%s%s: try again later',
                $attempt,
                $attempt === 1 ? '' : 's',
                $asked === null ? '' : sprintf('; the site asks to wait %s s', $asked)
            );
        return new ThrottledException($response->status(), $asked, $header, $attempt, $reason);
    }

    private function noAnswer(NoAnswerException $failure, int $attempts): NoAnswerException
    {
        $tried = sprintf('%d attempt%s', $attempts, $attempts === 1 ? '' : 's');
        if ($failure instanceof TimeoutException) {
            return new TimeoutException(sprintf(
                'No answer within %s s (%s); the action may have gone through, and a repeat is safe: %s',
                $this->options['timeout'],
                $tried,
                Text::excerpt($failure->getMessage(), 300)
            ), $attempts, $failure);
        }
        return new ConnectionException(sprintf(
            'No answer from the site (%s); the action may have gone through, and a repeat is safe: %s',
            $tried,
            Text::excerpt($failure->getMessage(), 300)
        ), $attempts, $failure);
    }

    /**
     * Reports one attempt to the logger: a line, and the members every library reports each
     * attempt with (src/clients/shared/attempt-report.ts), never the key.
     */
    private function report(
        string $action,
        int $attempt,
        string $outcome,
        ?int $status,
        float $started,
        ?float $retryIn
    ): void {
        if ($this->logger === null) {
            return;
        }
        $seconds = round(microtime(true) - $started, 3);
        $context = [
            'action' => $action,
            'attempt' => $attempt,
            'outcome' => $outcome,
            'status' => $status,
            'seconds' => $seconds,
            'retry_in_seconds' => $retryIn === null ? null : round($retryIn, 3),
        ];
        $line = sprintf(
            '%s %s: %s attempt %d %s in %.3f s%s',
            $this->description['method'],
            $this->endpointUrl,
            $action,
            $attempt,
            $outcome === 'answered' ? sprintf('answered %d', $status) : sprintf('got no answer (%s)', $outcome),
            $seconds,
            $retryIn === null ? '' : sprintf('; next attempt in %.3f s', $retryIn)
        );
        $level = $outcome === 'answered' && $status !== null && $status < 400 ? 'info' : 'warning';
        ($this->logger)($level, $line, $context);
    }

    /** The wait after failed attempt number $attempt: exponential, part of it random, so that clients that failed together spread out. */
    private function backoff(int $attempt): float
    {
        $policy = $this->description['policy'];
        $nominal = min((float) $policy['backoff_max'], $policy['backoff_base'] * (2 ** ($attempt - 1)));
        $fixed = $nominal * $policy['backoff_fixed_share'];
        return $fixed + ($nominal - $fixed) * (mt_rand() / mt_getrandmax());
    }

    /** @return array<string, mixed>|null the answer's members when it is a JSON object, null otherwise */
    private static function jsonObject(Response $response): ?array
    {
        $type = strtolower(trim(explode(';', (string) $response->header('content-type'))[0]));
        if (substr($type, -4) !== 'json') {
            return null;
        }
        $decoded = json_decode($response->body(), true);
        return is_array($decoded) && ($decoded === [] || array_keys($decoded) !== range(0, count($decoded) - 1))
            ? $decoded
            : null;
    }

    private function checkKey(): void
    {
        $key = $this->apiKey->reveal();
        $credential = (string) $this->description['credential'];
        if (!is_string($key) || $key === '') {
            throw new \InvalidArgumentException(sprintf(
                'The API key (%s) is a non-empty string; got %s.',
                $credential,
                is_string($key) ? 'an empty one' : gettype($key)
            ));
        }
        $rule = $this->description['credential_rule'];
        $key = null;
        if ($rule === null) {
            return;
        }
        try {
            FieldCheck::checkValue('the client', $credential, $this->apiKey->reveal(), $rule, false);
        } catch (InvalidFieldException $refused) {
            // Thrown again from here, whose frame holds no key: the refusal's own trace has the key
            // as an argument of checkValue().
            throw new InvalidFieldException(
                'the client',
                $credential,
                $refused->getBound(),
                'got another value (not shown)'
            );
        }
    }

    /** @param mixed $value */
    private static function seconds(string $option, $value): float
    {
        if ((!is_int($value) && !is_float($value)) || !is_finite((float) $value) || $value < 0) {
            throw new \InvalidArgumentException(
                sprintf('The option %s is a number of seconds, 0 or more; got %s.', $option, Text::described($value))
            );
        }
        return (float) $value;
    }

    /** @param mixed $siteUrl */
    private static function baseUrlOf($siteUrl): string
    {
        if (!is_string($siteUrl)) {
            throw new \InvalidArgumentException(sprintf(
                'The site URL is a string, such as https://shop.example; got %s.',
                $siteUrl === false ? 'false (is the environment variable set?)' : gettype($siteUrl)
            ));
        }
        $shown = Text::excerpt($siteUrl, 200);
        if (preg_match('/[\x00-\x1F\x7F]/', $siteUrl) === 1) {
            throw new \InvalidArgumentException(sprintf(
                'The site URL must not hold a control character (a line end, a tab, a NUL byte), got %s.',
                (string) json_encode($shown, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE)
            ));
        }
        $parts = parse_url($siteUrl);
        $scheme = strtolower((string) ($parts['scheme'] ?? ''));
        if ($parts === false || !isset($parts['host']) || !in_array($scheme, ['http', 'https'], true)) {
            throw new \InvalidArgumentException(
                sprintf('The site URL must start with http:// or https:// and name a host, got "%s".', $shown)
            );
        }
        if (isset($parts['user']) || isset($parts['pass'])) {
            throw new \InvalidArgumentException('The site URL must not carry a user name or password.');
        }
        if (isset($parts['query']) || isset($parts['fragment'])) {
            throw new \InvalidArgumentException(
                'The site URL is the base URL only, without ?query or #fragment; '
                . 'pass plain_permalinks => true for a site without pretty permalinks.'
            );
        }
        return rtrim($siteUrl, '/');
    }

    /**
     * The logger option as one function: a callable is given the line and the attempt's members; an
     * object with a log() method (PSR-3's LoggerInterface among them) is given the level too; one
     * with an info() method is given the line and the members.
     *
     * @param mixed $logger
     * @return (\Closure(string, string, array<string, mixed>): void)|null
     */
    private static function logger($logger): ?\Closure
    {
        if ($logger === null) {
            return null;
        }
        if (is_object($logger) && !$logger instanceof \Closure && method_exists($logger, 'log')) {
            return static function (string $level, string $line, array $context) use ($logger): void {
                $logger->log($level, $line, $context);
            };
        }
        if (is_object($logger) && !$logger instanceof \Closure && method_exists($logger, 'info')) {
            return static function (string $level, string $line, array $context) use ($logger): void {
                $logger->info($line, $context);
            };
        }
        if (is_callable($logger)) {
            return static function (string $level, string $line, array $context) use ($logger): void {
                $logger($line, $context);
            };
        }
        throw new \InvalidArgumentException(
            'The logger option is a callable, or an object with a log() or info() method.'
        );
    }

    /** @return array<string, mixed> what var_dump() and print_r() show: never the key */
    public function __debugInfo(): array
    {
        $options = $this->options;
        $options['transport'] = get_class($this->transport);
        $options['pace'] = $this->pace->interval();
        $options['logger'] = $this->logger === null ? null : 'set';
        return [
            'siteUrl' => $this->siteUrl,
            'endpointUrl' => $this->endpointUrl,
            'apiKey' => '(not shown)',
            'options' => $options,
        ];
    }

    /** @return array<string, mixed> what serialize() writes: what var_dump() shows, never the key */
    public function __serialize(): array
    {
        return $this->__debugInfo();
    }

    /** @param array<string, mixed> $data */
    public function __unserialize(array $data): void
    {
        throw new \LogicException('A client is not restored by unserialize(): make a new one with its key.');
    }
}
