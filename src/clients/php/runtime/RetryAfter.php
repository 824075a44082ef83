<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/RetryAfter.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client;

/**
 * Retry-After (RFC 9110, section 10.2.3), read one way in every client of this API: the value
 * trimmed; only digits is that many seconds; an IMF-fixdate (a real day with its right weekday)
 * is the time until that moment, 0 once it has passed; anything else is unreadable (null), and the
 * client falls back to its own backoff.
 */
final class RetryAfter
{
    private const DATE_FORMAT = 'D, d M Y H:i:s \G\M\T';

    private const DATE_PATTERN = '/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} '
        . '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/';

    /**
     * Seconds to wait, or null when the value is neither a number of seconds nor an IMF-fixdate.
     *
     * @param float|null $now the current time in seconds since 1970; the clock's when null
     */
    public static function seconds(string $value, ?float $now = null): ?float
    {
        $text = trim($value);
        if (preg_match('/^[0-9]+$/', $text) === 1) {
            return (float) $text;
        }
        if (preg_match(self::DATE_PATTERN, $text) !== 1) {
            return null;
        }
        $date = \DateTimeImmutable::createFromFormat('!' . self::DATE_FORMAT, $text, new \DateTimeZone('UTC'));
        // A day that does not exist, or the wrong weekday, comes back as another date: refused.
        if ($date === false || $date->format(self::DATE_FORMAT) !== $text) {
            return null;
        }
        $moment = (float) $date->getTimestamp();
        return max(0.0, $moment - ($now ?? microtime(true)));
    }
}
