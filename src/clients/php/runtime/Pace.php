<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Pace.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client;

/**
 * The courtesy pace: at most one request every $interval seconds to one site, and the waits a
 * site asked for (or a backoff) held before the next request to it. Each client has its own by
 * default; give clients of one site the same one (the pace option) to pace them together. It is
 * an object, not static state, so that a second client or a test double never waits for another.
 */
final class Pace
{
    /** @var float */
    private $interval;

    /** @var array<string, float> the moment before which each site is sent nothing, by its endpoint URL */
    private $notBefore = [];

    /** @param float $interval seconds between two requests to one site; 0 switches the courtesy off */
    public function __construct(float $interval)
    {
        if (!is_finite($interval) || $interval < 0) {
            throw new \InvalidArgumentException(
                sprintf('The pace is a number of seconds, 0 or more; got %s.', $interval)
            );
        }
        $this->interval = $interval;
    }

    /** Seconds between two requests to one site. */
    public function interval(): float
    {
        return $this->interval;
    }

    /** Waits until a request to $site may go, and counts the one about to be sent. */
    public function take(string $site): void
    {
        $wait = ($this->notBefore[$site] ?? 0.0) - microtime(true);
        if ($wait > 0) {
            usleep((int) ceil($wait * 1000000));
        }
        $this->notBefore[$site] = microtime(true) + $this->interval;
    }

    /** Holds back every later request to $site for $seconds from now, not only the next one of this call. */
    public function holdBack(string $site, float $seconds): void
    {
        $this->notBefore[$site] = max($this->notBefore[$site] ?? 0.0, microtime(true) + $seconds);
    }
}
