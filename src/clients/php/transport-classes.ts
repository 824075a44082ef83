/**
 * The PHP of the two transports and what passes between them and the client: a request that
 * never shows its body (it carries the key) and a response. Nothing here names a fact of the API.
 */
import { phpNamespace } from './php-source.ts';

const header = (namespace: string, uses: string[] = []): string =>
  ['<?php', '', 'declare(strict_types=1);', '', `namespace ${namespace};`, ...(uses.length > 0 ? ['', ...uses.map((use) => `use ${use};`)] : []), ''].join('\n');

const transportNamespace = `${phpNamespace}\\Transport`;

export function requestClass(): string {
  return `${header(transportNamespace)}
/**
 * One request as the client hands it to a transport. The body carries the API key, so the
 * request never shows it: var_dump(), print_r() and a stack trace's arguments see a placeholder.
 */
final class Request
{
    /** @var string */
    private $url;
    /** @var array<string, string> */
    private $headers;
    /** @var string */
    private $body;
    /** @var float */
    private $connectTimeout;
    /** @var float */
    private $timeout;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(string $url, array $headers, string $body, float $connectTimeout, float $timeout)
    {
        $this->url = $url;
        $this->headers = $headers;
        $this->body = $body;
        $this->connectTimeout = $connectTimeout;
        $this->timeout = $timeout;
    }

    public function url(): string
    {
        return $this->url;
    }

    /** @return array<string, string> */
    public function headers(): array
    {
        return $this->headers;
    }

    /** The JSON body, key included: for the transport only. */
    public function body(): string
    {
        return $this->body;
    }

    /** Seconds to wait for the connection. */
    public function connectTimeout(): float
    {
        return $this->connectTimeout;
    }

    /** Seconds the whole exchange may take. */
    public function timeout(): float
    {
        return $this->timeout;
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return [
            'url' => $this->url,
            'headers' => $this->headers,
            'body' => '(not shown: it carries the API key)',
            'connectTimeout' => $this->connectTimeout,
            'timeout' => $this->timeout,
        ];
    }
}
`;
}

export function responseClass(): string {
  return `${header(transportNamespace)}
/** What came back: the status, the headers (names in lower case) and the body as sent. */
final class Response
{
    /** @var int */
    private $status;
    /** @var array<string, string> */
    private $headers;
    /** @var string */
    private $body;

    /**
     * @param array<string, string> $headers
     */
    public function __construct(int $status, array $headers, string $body)
    {
        $this->status = $status;
        $this->headers = array_change_key_case($headers, CASE_LOWER);
        $this->body = $body;
    }

    public function status(): int
    {
        return $this->status;
    }

    /** A header's value, or null when the response has none by that name (any case). */
    public function header(string $name): ?string
    {
        $key = strtolower($name);
        return array_key_exists($key, $this->headers) ? $this->headers[$key] : null;
    }

    /** @return array<string, string> */
    public function headers(): array
    {
        return $this->headers;
    }

    public function body(): string
    {
        return $this->body;
    }
}
`;
}

export function transportInterface(): string {
  return `${header(transportNamespace, [`${phpNamespace}\\Exception\\TransportException`])}
/**
 * Sends one request and returns what came back, whatever its status. Only a request that got no
 * answer at all (no connection, a timeout) is an exception.
 */
interface Transport
{
    /**
     * @throws TransportException when no answer came
     */
    public function send(Request $request): Response;
}
`;
}

export function curlTransportClass(): string {
  return `${header(transportNamespace, [`${phpNamespace}\\Exception\\TransportException`])}
/**
 * The transport of ext-curl. One handle is kept for the transport's life, so that calls to the
 * same site reuse the connection.
 */
final class CurlTransport implements Transport
{
    /** @var resource|\\CurlHandle|null */
    private $handle;

    public function send(Request $request): Response
    {
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
        curl_setopt_array($this->handle, [
            CURLOPT_URL => $request->url(),
            CURLOPT_POST => true,
            CURLOPT_POSTFIELDS => $request->body(),
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
        $body = curl_exec($this->handle);
        if ($body === false) {
            $number = curl_errno($this->handle);
            $error = curl_error($this->handle);
            throw new TransportException(
                sprintf('No answer from %s: %s', $request->url(), $error),
                $number === CURLE_OPERATION_TIMEDOUT
            );
        }
        return new Response((int) curl_getinfo($this->handle, CURLINFO_RESPONSE_CODE), $headers, (string) $body);
    }
}
`;
}

export function wordPressTransportClass(): string {
  return `${header(transportNamespace, [`${phpNamespace}\\Exception\\TransportException`])}
/**
 * The transport of WordPress's HTTP API (wp_remote_post), for a plugin that calls a shop from
 * inside WordPress: the site's own proxy settings, certificates and http_request_args filters
 * apply. WordPress has one timeout for the whole request; the connect timeout is not separate.
 */
final class WordPressTransport implements Transport
{
    public function __construct()
    {
        if (!function_exists('wp_remote_post')) {
            throw new \\LogicException('WordPressTransport needs WordPress loaded: wp_remote_post() is not defined.');
        }
    }

    public function send(Request $request): Response
    {
        $headers = $request->headers();
        $userAgent = $headers['User-Agent'] ?? null;
        unset($headers['User-Agent']);
        $arguments = [
            'method' => 'POST',
            'headers' => $headers,
            'body' => $request->body(),
            'timeout' => $request->timeout(),
            'redirection' => 0,
            'data_format' => 'body',
        ];
        if ($userAgent !== null) {
            $arguments['user-agent'] = $userAgent;
        }
        $answer = wp_remote_post($request->url(), $arguments);
        if (is_wp_error($answer)) {
            $message = $answer->get_error_message();
            throw new TransportException(
                sprintf('No answer from %s: %s', $request->url(), $message),
                stripos($message, 'timed out') !== false
            );
        }
        $received = [];
        foreach (wp_remote_retrieve_headers($answer) as $name => $value) {
            $received[strtolower((string) $name)] = is_array($value) ? implode(', ', $value) : (string) $value;
        }
        return new Response((int) wp_remote_retrieve_response_code($answer), $received, (string) wp_remote_retrieve_body($answer));
    }
}
`;
}
