<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/NoAnswerException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

/**
 * No answer came on the last attempt, after the retries the policy allows: the action may have
 * gone through, and a repeat is safe. It is one of its two refinements, TimeoutException or
 * ConnectionException; a transport throws one of them for one attempt, and the client throws a
 * new one when the attempts run out.
 */
abstract class NoAnswerException extends \RuntimeException implements ClientException
{
    /** @var int */
    private $attempts;

    public function __construct(string $message, int $attempts = 1, ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
        $this->attempts = $attempts;
    }

    /** How many requests were sent, the first included. */
    public function getAttempts(): int
    {
        return $this->attempts;
    }
}
