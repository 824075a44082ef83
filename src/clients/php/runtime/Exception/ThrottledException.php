<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/ThrottledException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

/**
 * The site kept asking to slow down, or asked to wait longer than the client waits (the max_wait
 * option): try again later. Its code is the HTTP status the site answered with.
 */
final class ThrottledException extends \RuntimeException implements ClientException
{
    /** @var int */
    private $httpStatus;
    /** @var float|null */
    private $retryAfter;
    /** @var string|null */
    private $header;
    /** @var int */
    private $attempts;

    public function __construct(int $httpStatus, ?float $retryAfter, ?string $header, int $attempts, string $reason)
    {
        parent::__construct(sprintf('HTTP %d: %s', $httpStatus, $reason), $httpStatus);
        $this->httpStatus = $httpStatus;
        $this->retryAfter = $retryAfter;
        $this->header = $header;
        $this->attempts = $attempts;
    }

    public function getHttpStatus(): int
    {
        return $this->httpStatus;
    }

    /** Seconds the site asked to wait; null when it named no wait the client can read. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }

    /** The header that asked for the wait, as received, or null without one. */
    public function getRetryAfterHeader(): ?string
    {
        return $this->header;
    }

    /** How many requests were sent, the first included. */
    public function getAttempts(): int
    {
        return $this->attempts;
    }
}
