<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/ConnectionException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

/** The connection failed: a wrong address, a refused or a dropped connection. */
final class ConnectionException extends NoAnswerException
{
}
