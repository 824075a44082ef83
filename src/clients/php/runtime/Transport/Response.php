<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Transport/Response.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Transport;

/** What came back: the status, the headers (names in lower case) and the body as sent. */
final class Response
{
    /** @var int */
    private $status;
    /** @var array<string, string> */
    private $headers;
    /** @var string */
    private $body;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(int $status, array $headers, string $body)
    {
        $this->status = $status;
        $this->headers = array_change_key_case($headers, CASE_LOWER);
        $this->body = $body;
    }

    public function status(): int
    {
        return $this->status;
    }

    /** A header's value, or null when the response has none by that name (any case). */
    public function header(string $name): ?string
    {
        $key = strtolower($name);
        return array_key_exists($key, $this->headers) ? $this->headers[$key] : null;
    }

    /** @return array<string, string> */
    public function headers(): array
    {
        return $this->headers;
    }

    public function body(): string
    {
        return $this->body;
    }
}
