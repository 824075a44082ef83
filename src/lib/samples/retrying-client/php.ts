import { phpHeaderCollector } from '../action-sample/php.ts';
import { phpLiteral, phpString } from '../literals.ts';
import { wordpressRouteParameter } from '../../contract/endpoint.ts';
import { phpFloorPhrase } from '../php-floor.ts';
import { baseUrlParts, fillIn, type ClientParts } from './client-parts.ts';

/** The retrying client in plain PHP with the curl extension: the JavaScript client's policy, step for step. */
export function retryingPhpClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const base = baseUrlParts(endpoint);
  const code = statuses.codeField;
  const retryAfterName = statuses.retryAfter.toLowerCase();
  if (endpoint.method !== 'POST') throw new Error('The PHP retrying client posts with CURLOPT_POST, but the operation is not a POST');

  return `<?php
// A client for one site that follows the retry policy of the errors guide.
// Plain ${phpFloorPhrase} with the curl extension (ext-curl): no Composer package to add.

const CONNECT_TIMEOUT     = ${policy.connectTimeoutSeconds}; // seconds to connect
const ATTEMPT_TIMEOUT     = ${policy.attemptTimeoutSeconds}; // seconds one attempt may take in all
const MAX_ATTEMPTS        = ${policy.maxAttempts}; // attempts in all, the first one included
const BACKOFF_BASE        = ${policy.backoffBaseSeconds}; // nominal seconds before the second attempt; doubles
const BACKOFF_MAX         = ${policy.backoffMaxSeconds}; // no nominal wait grows beyond this
const BACKOFF_FIXED_SHARE = ${policy.backoffFixedShare}; // the part of each wait that is not random
const RETRY_AFTER_CAP     = ${policy.retryAfterCapSeconds}; // asked to wait longer, the client stops
const INTERVAL            = ${policy.courtesyIntervalSeconds}; // about one request per second to a site
// ${statuses.throttled} after ${statuses.retryAfter}, the others after a backoff.
const RETRIED = array( ${statuses.retried.join(', ')} );

/**
 * Seconds to wait, from a ${statuses.retryAfter} header: whole seconds, or an HTTP
 * date in its one current form, "Fri, 20 Nov 2026 14:05:00 GMT" (RFC 9110,
 * section 10.2.3), none once it has passed. Null when missing or anything else
 * (-1, 1.5, now, an older date form): then the backoff applies.
 */
function retry_after( ?string $value, ?float $now = null ): ?float {
    if ( null === $value ) {
        return null;
    }
    $text = trim( $value );
    if ( 1 === preg_match( '/^[0-9]+$/', $text ) ) {
        return (float) $text;
    }
    // strtotime() reads "-1" and "now" too; only a date it writes back unchanged is an HTTP date.
    $moment = strtotime( $text );
    if ( false === $moment || gmdate( 'D, d M Y H:i:s \\G\\M\\T', $moment ) !== $text ) {
        return null;
    }
    return max( 0.0, $moment - ( $now ?? microtime( true ) ) );
}

/** The wait after failed attempt number $attempt: exponential, with jitter. */
function backoff( int $attempt ): float {
    $nominal = min( BACKOFF_MAX, BACKOFF_BASE * 2 ** ( $attempt - 1 ) );
    $fixed   = $nominal * BACKOFF_FIXED_SHARE;
    return $fixed + ( $nominal - $fixed ) * mt_rand() / mt_getrandmax();
}

/**
 * The service refused the request; branch on $error_code (the body's "${code}").
 * Sending it again unchanged would fail again.
 */
final class ServiceError extends RuntimeException {
    public int $status;
    public string $error_code;
    /** @var mixed The error's details, as the service sent them. */
    public $data;

    public function __construct( int $status, array $answer ) {
        $message = $answer['${statuses.messageField}'] ?? '';
        parent::__construct( "HTTP {$status} {$answer['${code}']}: {$message}" );
        $this->status     = $status;
        $this->error_code = $answer['${code}'];
        $this->data       = $answer['data'] ?? null;
    }
}

/** The host, a firewall or a CDN answered, not the service: a block, a redirect, a wrong address. */
final class HostError extends RuntimeException {
    public int $status;

    public function __construct( int $status, array $headers ) {
        $type  = $headers['content-type'] ?? 'no body type';
        $where = isset( $headers['location'] ) ? "; it points to {$headers['location']}" : '';
        parent::__construct( "HTTP {$status} from the host, not the service ({$type}){$where}" );
        $this->status = $status;
    }
}

/** The attempts ended without a success; the message says what the last one got. */
final class GaveUp extends RuntimeException {}

/** A client for one site: send() returns the success body or throws one of the errors above. */
final class Client {
    private string $url;
    // No request goes to this site before this moment.
    private float $not_before = 0.0;

    // $base_url: the site's whole base URL, scheme included: ${base.example},
    // or the http:// address a local sandbox prints; for a site without pretty
    // permalinks, the same ending in "?${wordpressRouteParameter}=": ${base.plain.example}.
    public function __construct( string $base_url ) {
        $this->url = 1 === preg_match( ${phpString(`/${base.plain.ending.source}/`)}, $base_url )
            ? $base_url . ${phpString(base.plain.route)}
            : rtrim( $base_url, '/' ) . ${phpString(base.path)};
    }

    public function send( array $body ): array {
        $last = '';
        for ( $attempt = 1; $attempt <= MAX_ATTEMPTS; $attempt++ ) {
            $this->wait_for_turn();
            $answer = $this->attempt( $body );
            if ( is_string( $answer ) ) {
                // No answer: the connection dropped or the attempt timed out. The action may
                // have gone through; a repeat is safe, it answers "changed": false.
                $last = "no answer ({$answer})";
                $this->hold_back( backoff( $attempt ) );
                continue;
            }
            [ $status, $headers, $text ] = $answer;
            if ( ${statuses.success} === $status ) {
                return json_decode( $text, true );
            }
            // Only a JSON body with a "${code}" comes from the service.
            $type         = $headers['content-type'] ?? '';
            $json         = 0 === stripos( $type, 'application/json' ) ? json_decode( $text, true ) : null;
            $from_service = is_array( $json ) && is_string( $json['${code}'] ?? null );
            if ( ! in_array( $status, RETRIED, true ) ) {
                throw $from_service ? new ServiceError( $status, $json ) : new HostError( $status, $headers );
            }
            $last  = "HTTP {$status}" . ( $from_service ? " {$json['${code}']}" : '' );
            $asked = retry_after( $headers['${retryAfterName}'] ?? null );
            if ( null !== $asked && $asked > RETRY_AFTER_CAP ) {
                $wait = (int) ceil( $asked );
                throw new GaveUp( "{$last} asks to wait {$wait} s, longer than " . RETRY_AFTER_CAP . ' s: try again later' );
            }
            $this->hold_back( $asked ?? backoff( $attempt ) );
        }
        throw new GaveUp( 'No success after ' . MAX_ATTEMPTS . " attempts; the last got {$last}" );
    }

    /**
     * One attempt: [status, headers with names in lower case, body], or what went wrong.
     *
     * @return array|string
     */
    private function attempt( array $body ) {
        $headers = array();
        $collect = ${phpHeaderCollector('        ')};
        $curl    = curl_init( $this->url );
        curl_setopt_array(
            $curl,
            array(
                CURLOPT_POST           => true,
                CURLOPT_HTTPHEADER     => array( 'Content-Type: application/json' ),
                CURLOPT_POSTFIELDS     => json_encode( $body ),
                CURLOPT_CONNECTTIMEOUT => CONNECT_TIMEOUT,
                CURLOPT_TIMEOUT        => ATTEMPT_TIMEOUT,
                // A redirect would turn the POST into a GET: report it instead.
                CURLOPT_FOLLOWLOCATION => false,
                CURLOPT_RETURNTRANSFER => true,
                CURLOPT_HEADERFUNCTION => $collect,
            )
        );
        $text = curl_exec( $curl );
        if ( false === $text ) {
            return curl_error( $curl );
        }
        return array( curl_getinfo( $curl, CURLINFO_RESPONSE_CODE ), $headers, $text );
    }

    private function wait_for_turn(): void {
        // The monotonic clock: a wall clock set back or slewed would shorten the spacing.
        $wait = $this->not_before - hrtime( true ) / 1e9;
        if ( $wait > 0 ) {
            usleep( (int) ( $wait * 1e6 ) );
        }
        $this->not_before = hrtime( true ) / 1e9 + INTERVAL;
    }

    // A wait holds back every later request to this site, not only this one.
    private function hold_back( float $seconds ): void {
        $this->not_before = max( $this->not_before, hrtime( true ) / 1e9 + $seconds );
    }
}

${fillIn('//', parts)}
$client = new Client( ${phpString(base.example)} );
try {
    print_r( $client->send( ${phpLiteral(example, '    ')} ) );
} catch ( ServiceError | HostError | GaveUp $error ) {
    fwrite( STDERR, $error->getMessage() . PHP_EOL );
    exit( 1 );
}
`;
}
