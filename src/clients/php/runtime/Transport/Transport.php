<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Transport/Transport.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Transport;

use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;

/**
 * Sends one request and returns what came back, whatever its status. Only a request that got no
 * answer at all is an exception: a timeout, or a failed connection; the client decides whether
 * to send it again.
 */
interface Transport
{
    /**
     * @throws TimeoutException when the timeout passed before an answer came
     * @throws ConnectionException when the connection failed: refused, dropped, a wrong address
     */
    public function send(Request $request): Response;
}
