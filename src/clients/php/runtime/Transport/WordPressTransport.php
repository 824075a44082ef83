<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Transport/WordPressTransport.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Transport;

use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;
use SubscriptionLifecycle\Client\Internal\Text;

/**
 * The transport of WordPress's HTTP API (wp_remote_request), for a plugin that calls a shop from
 * inside WordPress: the site's own proxy settings, certificates and http_request_args filters
 * apply. WordPress has one timeout for the whole request; the connect timeout is not separate.
 */
final class WordPressTransport implements Transport
{
    public function __construct()
    {
        if (!function_exists('wp_remote_request')) {
            throw new \LogicException('WordPressTransport needs WordPress loaded: wp_remote_request() is not defined.');
        }
    }

    public function send(Request $request): Response
    {
        $headers = $request->headers();
        $userAgent = $headers['User-Agent'] ?? null;
        unset($headers['User-Agent']);
        $arguments = [
            'method' => $request->method(),
            'headers' => $headers,
            'body' => $request->body(),
            'timeout' => $request->timeout(),
            'redirection' => 0,
            'data_format' => 'body',
        ];
        if ($userAgent !== null) {
            $arguments['user-agent'] = $userAgent;
        }
        try {
            $answer = wp_remote_request($request->url(), $arguments);
        } catch (\Throwable $thrown) {
            // Only strings are passed on: a trace of the new exception must not hold the old one.
            $where = $thrown->getFile() . ':' . $thrown->getLine();
            throw self::withoutTrace(get_class($thrown), $where, $thrown->getMessage(), $request->url());
        }
        if (is_wp_error($answer)) {
            $reason = $answer->get_error_message();
            $message = sprintf('No answer from %s: %s', $request->url(), $reason);
            if (stripos($reason, 'timed out') !== false) {
                throw new TimeoutException($message);
            }
            throw new ConnectionException($message);
        }
        $received = [];
        foreach (wp_remote_retrieve_headers($answer) as $name => $value) {
            $received[strtolower((string) $name)] = is_array($value) ? implode(', ', $value) : (string) $value;
        }
        return new Response(
            (int) wp_remote_retrieve_response_code($answer),
            $received,
            (string) wp_remote_retrieve_body($answer)
        );
    }

    /**
     * What a filter, an action or an error handler threw inside wp_remote_request(), told again
     * without its trace: the frames of WordPress's HTTP API hold the request's arguments, and the
     * body among them carries the API key. The class, the message and where it was thrown stay.
     */
    private static function withoutTrace(string $class, string $where, string $message, string $url): \RuntimeException
    {
        return new \RuntimeException(sprintf(
            'WordPress threw %s while sending to %s, at %s: %s (its trace is left out: it holds the request body, '
            . 'which carries the API key)',
            $class,
            $url,
            $where,
            Text::excerpt($message, 300)
        ));
    }
}
