<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/ClientException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

/**
 * Every exception this package throws implements it: catch it to catch them all. PHP's exceptions
 * extend one of its own classes (\InvalidArgumentException, \RuntimeException), so the base every
 * one shares is an interface rather than a class.
 */
interface ClientException extends \Throwable
{
}
