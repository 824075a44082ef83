<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/TimeoutException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

/** The site did not answer within the timeout (the connect_timeout or timeout option). */
final class TimeoutException extends NoAnswerException
{
}
