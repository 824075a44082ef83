<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Transport/Request.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Transport;

use SubscriptionLifecycle\Client\Internal\Secret;

/**
 * One request as the client hands it to a transport. The body carries the API key, so the request
 * holds it as a Secret: var_dump(), print_r(), var_export(), serialize(), json_encode() and a
 * stack trace's arguments see a placeholder; only body() gives it, for the transport to send.
 */
final class Request
{
    /** @var string */
    private $method;
    /** @var string */
    private $url;
    /** @var array<string, string> */
    private $headers;
    /** @var Secret */
    private $body;
    /** @var float */
    private $connectTimeout;
    /** @var float */
    private $timeout;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(
        string $method,
        string $url,
        array $headers,
        Secret $body,
        float $connectTimeout,
        float $timeout
    ) {
        $this->method = $method;
        $this->url = $url;
        $this->headers = $headers;
        $this->body = $body;
        $this->connectTimeout = $connectTimeout;
        $this->timeout = $timeout;
    }

    /** The HTTP method: the endpoint's, as the contract writes it. */
    public function method(): string
    {
        return $this->method;
    }

    public function url(): string
    {
        return $this->url;
    }

    /** @return array<string, string> */
    public function headers(): array
    {
        return $this->headers;
    }

    /** The JSON body, key included: for the transport only, to send it. */
    public function body(): string
    {
        return (string) $this->body->reveal();
    }

    /** Seconds to wait for the connection. */
    public function connectTimeout(): float
    {
        return $this->connectTimeout;
    }

    /** Seconds the whole exchange may take. */
    public function timeout(): float
    {
        return $this->timeout;
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return [
            'method' => $this->method,
            'url' => $this->url,
            'headers' => $this->headers,
            'body' => '(not shown: it carries the API key)',
            'connectTimeout' => $this->connectTimeout,
            'timeout' => $this->timeout,
        ];
    }
}
