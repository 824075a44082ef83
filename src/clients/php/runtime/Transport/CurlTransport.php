<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Transport/CurlTransport.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Transport;

use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;
use SubscriptionLifecycle\Client\Internal\Text;

/**
 * The transport of ext-curl. One handle is kept for the transport's life, so that calls to the
 * same site reuse the connection.
 */
final class CurlTransport implements Transport
{
    /** @var resource|\CurlHandle|null */
    private $handle;

    public function send(Request $request): Response
    {
        if (strpos($request->url(), "\0") !== false) {
            // curl_setopt_array() would refuse it with a ValueError, or a warning before PHP 8.
            throw new \InvalidArgumentException('The URL holds a NUL byte, which curl cannot send.');
        }
        if ($this->handle === null) {
            $this->handle = curl_init();
        } else {
            curl_reset($this->handle);
        }
        $headers = [];
        $lines = [];
        foreach ($request->headers() as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $lines[] = 'Expect:';
        // The body, which carries the key, is not among these options: should curl_setopt_array()
        // refuse one, by throwing or by a warning an error handler turns into an exception, the
        // trace of that would hold its arguments.
        $set = curl_setopt_array($this->handle, [
            CURLOPT_URL => $request->url(),
            CURLOPT_CUSTOMREQUEST => $request->method(),
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_CONNECTTIMEOUT_MS => (int) ceil($request->connectTimeout() * 1000),
            CURLOPT_TIMEOUT_MS => (int) ceil($request->timeout() * 1000),
            CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$headers): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $name = strtolower(trim($parts[0]));
                    $value = trim($parts[1]);
                    $headers[$name] = isset($headers[$name]) ? $headers[$name] . ', ' . $value : $value;
                } elseif (strpos($line, 'HTTP/') === 0) {
                    // A new status line (after a 100 Continue): only the last response's headers count.
                    $headers = [];
                }
                return strlen($line);
            },
        ]);
        if ($set === false) {
            throw new ConnectionException(sprintf(
                'The request to %s could not be set up: %s',
                Text::excerpt($request->url(), 200),
                curl_error($this->handle)
            ));
        }
        // Given alone, last, to a call that cannot fail for a string, so that no trace or warning holds the body.
        curl_setopt($this->handle, CURLOPT_POSTFIELDS, $request->body());
        $body = curl_exec($this->handle);
        if ($body === false) {
            $number = curl_errno($this->handle);
            $message = sprintf('No answer from %s: %s', $request->url(), curl_error($this->handle));
            if ($number === CURLE_OPERATION_TIMEDOUT) {
                throw new TimeoutException($message);
            }
            throw new ConnectionException($message);
        }
        return new Response((int) curl_getinfo($this->handle, CURLINFO_RESPONSE_CODE), $headers, (string) $body);
    }
}
