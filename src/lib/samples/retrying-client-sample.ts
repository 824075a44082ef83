import type { CodeSample, SampleLanguage, SampleStatuses } from './code-samples.ts';
import { fillInComment, interpolatedUrl, javascriptLiteral, phpHeaderCollector, phpLiteral, phpString, placeholdersIn, pythonLiteral, sampleLanguages, variableName } from './code-samples.ts';
import type { Endpoint } from '../contract/endpoint.ts';
import type { RetryPolicy } from './retry-policy.ts';
import { retryPolicy } from './retry-policy.ts';

/** What both retrying clients are written from. */
interface ClientParts {
  endpoint: Endpoint;
  statuses: SampleStatuses;
  policy: RetryPolicy;
  /** The request example the usage at the end sends. */
  example: Record<string, unknown>;
}

function fillIn(marker: string, { endpoint, example }: ClientParts): string {
  return fillInComment(marker, [
    ...endpoint.variables.map((variable) => variable.defaultValue),
    ...placeholdersIn(example).map((placeholder) => `${placeholder} in the body`),
  ]);
}

/**
 * A JavaScript client for one site that follows the retry policy exactly: a timeout on every
 * attempt; the throttled status waited out as its `Retry-After` header says (seconds or an HTTP
 * date, RFC 9110 section 10.2.3) up to the cap; the service's failure, the host's transient
 * answers, dropped connections and timeouts sent again after an exponential backoff with jitter;
 * at most `maxAttempts` attempts; every other answer reported at once, the service's own errors
 * (JSON with a code) told apart from the host's; and about a second between requests to the site.
 */
export function retryingJavascriptClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const parameters = endpoint.variables.map((variable) => variableName(variable.name));
  const url = interpolatedUrl(endpoint, (name) => `\${${name}}`);
  const defaults = endpoint.variables.map((variable) => JSON.stringify(variable.defaultValue)).join(', ');
  const [throttled, ...others] = [Number(statuses.throttled), ...statuses.retried.filter((status) => status !== Number(statuses.throttled))];
  const code = statuses.codeField;

  return `/** The retry policy of the errors guide, in milliseconds. */
export const policy = {
  // One attempt may take this long in all, connecting included.
  attemptTimeout: ${policy.attemptTimeoutSeconds * 1000},
  // Attempts in all, the first one included.
  maxAttempts: ${policy.maxAttempts},
  // The nominal wait before the second attempt; it doubles before each further one.
  backoffBase: ${policy.backoffBaseSeconds * 1000},
  backoffMax: ${policy.backoffMaxSeconds * 1000},
  // The part of each nominal wait that is always waited; the rest is random.
  backoffFixedShare: ${policy.backoffFixedShare},
  // Asked to wait longer than this, the client stops and reports.
  retryAfterCap: ${policy.retryAfterCapSeconds * 1000},
  // About one request per second to a site: a courtesy, not enforced.
  interval: ${policy.courtesyIntervalSeconds * 1000},
};

/** ${throttled} is waited out as ${statuses.retryAfter} says; ${others.join(', ')} are sent again after a backoff. */
const retried = new Set([${statuses.retried.join(', ')}]);

/**
 * Milliseconds to wait, from a ${statuses.retryAfter} header: a number of
 * seconds or an HTTP date (RFC 9110, section 10.2.3). Null when the
 * header is missing or unreadable.
 */
export function retryAfter(value, now = Date.now()) {
  if (value === null) return null;
  const text = value.trim();
  if (/^\\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait after failed attempt number \`attempt\`: exponential, with jitter. */
export function backoff(attempt, settings = policy) {
  const nominal = Math.min(settings.backoffMax, settings.backoffBase * 2 ** (attempt - 1));
  const fixed = nominal * settings.backoffFixedShare;
  return fixed + (nominal - fixed) * Math.random();
}

/** The service refused the request; branch on \`${code}\`. Sending it again unchanged would fail again. */
export class ServiceError extends Error {
  constructor(status, answer) {
    super(\`HTTP \${status} \${answer.${code}}: \${answer.${statuses.messageField}}\`);
    this.status = status;
    this.${code} = answer.${code};
    this.data = answer.data;
  }
}

/** The host, a firewall or a CDN answered, not the service: a block, a redirect, a wrong address. */
export class HostError extends Error {
  constructor(response) {
    const type = response.headers.get("Content-Type") || "no body type";
    const location = response.headers.get("Location");
    super(\`HTTP \${response.status} from the host, not the service (\${type})\${location ? \`; it points to \${location}\` : ""}\`);
    this.status = response.status;
  }
}

/** The attempts ended without a success; the message says what the last one got. */
export class GaveUp extends Error {}

const sleep = (milliseconds) =>
  new Promise((resolve) => setTimeout(resolve, milliseconds));

const isJson = (response) =>
  (response.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json");

/** A client for one site: \`send(body)\` resolves to the success body, or rejects with one of the errors above. */
export function createClient(${parameters.join(', ')}, options = {}) {
  const settings = { ...policy, ...options };
  const url = \`${url}\`;
  // No request goes to this site before this moment.
  let notBefore = 0;
  // Calls made at the same time take their turns one after the other.
  let queue = Promise.resolve();

  function waitForTurn() {
    const turn = queue.then(async () => {
      await sleep(Math.max(0, notBefore - Date.now()));
      notBefore = Date.now() + settings.interval;
    });
    queue = turn;
    return turn;
  }

  // A wait holds back every later request to this site, not only this one.
  function holdBack(milliseconds) {
    notBefore = Math.max(notBefore, Date.now() + milliseconds);
  }

  return async function send(body) {
    let last = "";
    for (let attempt = 1; attempt <= settings.maxAttempts; attempt += 1) {
      await waitForTurn();
      let response;
      try {
        response = await fetch(url, {
          method: ${JSON.stringify(endpoint.method)},
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(settings.attemptTimeout),
          // A redirect would turn the POST into a GET: report it instead.
          redirect: "manual",
        });
      } catch (error) {
        // No answer: the connection dropped or the attempt timed out. The action may
        // have gone through; a repeat is safe, it answers "changed": false.
        last = \`no answer (\${error.cause?.code ?? error.name})\`;
        holdBack(backoff(attempt, settings));
        continue;
      }
      if (response.status === ${statuses.success}) return response.json();
      // Only a JSON body with a "${code}" comes from the service.
      const answer = isJson(response)
        ? await response.json().catch(() => undefined)
        : await response.body?.cancel();
      const fromService = typeof answer?.${code} === "string";
      if (!retried.has(response.status)) {
        throw fromService ? new ServiceError(response.status, answer) : new HostError(response);
      }
      last = \`HTTP \${response.status}\${fromService ? \` \${answer.${code}}\` : ""}\`;
      const asked = retryAfter(response.headers.get(${JSON.stringify(statuses.retryAfter)}));
      if (asked !== null && asked > settings.retryAfterCap) {
        throw new GaveUp(\`\${last} asks to wait \${Math.ceil(asked / 1000)} s, longer than \${settings.retryAfterCap / 1000} s: try again later\`);
      }
      holdBack(asked ?? backoff(attempt, settings));
    }
    throw new GaveUp(\`No success after \${settings.maxAttempts} attempts; the last got \${last}\`);
  };
}

${fillIn('//', parts)}
const send = createClient(${defaults});
try {
  console.log(await send(${javascriptLiteral(example, '  ')}));
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
}
`;
}

/** The same client in Python, with the `requests` library: the same policy, step for step. */
export function retryingPythonClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const parameters = endpoint.variables.map((variable) => variableName(variable.name));
  const url = interpolatedUrl(endpoint, (name) => `{${name}}`);
  const defaults = endpoint.variables.map((variable) => JSON.stringify(variable.defaultValue)).join(', ');
  const code = statuses.codeField;

  return `"""A client for one site that follows the retry policy of the errors guide."""
import email.utils
import random
import time
from datetime import timezone

import requests  # pip install requests

CONNECT_TIMEOUT = ${policy.connectTimeoutSeconds}  # seconds to connect
READ_TIMEOUT = ${policy.attemptTimeoutSeconds}  # seconds to wait for each part of the answer
MAX_ATTEMPTS = ${policy.maxAttempts}  # attempts in all, the first one included
BACKOFF_BASE = ${policy.backoffBaseSeconds}  # nominal seconds before the second attempt; doubles each time
BACKOFF_MAX = ${policy.backoffMaxSeconds}  # no nominal wait grows beyond this
BACKOFF_FIXED_SHARE = ${policy.backoffFixedShare}  # the part of each wait that is not random
RETRY_AFTER_CAP = ${policy.retryAfterCapSeconds}  # asked to wait longer, the client stops and reports
INTERVAL = ${policy.courtesyIntervalSeconds}  # about one request per second to a site: a courtesy
RETRIED = {${statuses.retried.join(', ')}}  # ${statuses.throttled} after ${statuses.retryAfter}, the others after a backoff


def retry_after(value, now=None):
    """Seconds to wait, from a ${statuses.retryAfter} header: a number of seconds or an
    HTTP date (RFC 9110, section 10.2.3). None when missing or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


def backoff(attempt):
    """The wait after failed attempt number \`attempt\`: exponential, with jitter."""
    nominal = min(BACKOFF_MAX, BACKOFF_BASE * 2 ** (attempt - 1))
    fixed = nominal * BACKOFF_FIXED_SHARE
    return fixed + (nominal - fixed) * random.random()


class ServiceError(Exception):
    """The service refused the request; branch on \`${code}\`. Sending it again unchanged would fail again."""

    def __init__(self, status, answer):
        super().__init__(f"HTTP {status} {answer['${code}']}: {answer.get('${statuses.messageField}')}")
        self.status = status
        self.${code} = answer["${code}"]
        self.data = answer.get("data")


class HostError(Exception):
    """The host, a firewall or a CDN answered, not the service: a block, a redirect, a wrong address."""

    def __init__(self, response):
        kind = response.headers.get("Content-Type") or "no body type"
        location = response.headers.get("Location")
        pointer = f"; it points to {location}" if location else ""
        super().__init__(f"HTTP {response.status_code} from the host, not the service ({kind}){pointer}")
        self.status = response.status_code


class GaveUp(Exception):
    """The attempts ended without a success; the message says what the last one got."""


class Client:
    """A client for one site: \`send(body)\` returns the success body or raises one of the errors above."""

    def __init__(self, ${parameters.join(', ')}):
        self.url = f"${url}"
        self.session = requests.Session()
        # No request goes to this site before this moment.
        self.not_before = 0.0

    def _wait_for_turn(self):
        time.sleep(max(0.0, self.not_before - time.monotonic()))
        self.not_before = time.monotonic() + INTERVAL

    def _hold_back(self, seconds):
        # A wait holds back every later request to this site, not only this one.
        self.not_before = max(self.not_before, time.monotonic() + seconds)

    def send(self, body):
        last = ""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            self._wait_for_turn()
            try:
                response = self.session.request(
                    ${JSON.stringify(endpoint.method)},
                    self.url,
                    json=body,
                    timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                    # A redirect would turn the POST into a GET: report it instead.
                    allow_redirects=False,
                )
            except (requests.ConnectionError, requests.Timeout) as error:
                # No answer: the connection dropped or the attempt timed out. The action may
                # have gone through; a repeat is safe, it answers "changed": false.
                last = f"no answer ({type(error).__name__})"
                self._hold_back(backoff(attempt))
                continue
            if response.status_code == ${statuses.success}:
                return response.json()
            # Only a JSON body with a "${code}" comes from the service.
            answer = None
            if response.headers.get("Content-Type", "").lower().startswith("application/json"):
                try:
                    answer = response.json()
                except ValueError:
                    answer = None
            from_service = isinstance(answer, dict) and isinstance(answer.get("${code}"), str)
            if response.status_code not in RETRIED:
                raise ServiceError(response.status_code, answer) if from_service else HostError(response)
            last = f"HTTP {response.status_code}" + (f" {answer['${code}']}" if from_service else "")
            asked = retry_after(response.headers.get("${statuses.retryAfter}"))
            if asked is not None and asked > RETRY_AFTER_CAP:
                raise GaveUp(f"{last} asks to wait {asked:.0f} s, longer than {RETRY_AFTER_CAP} s: try again later")
            self._hold_back(backoff(attempt) if asked is None else asked)
        raise GaveUp(f"No success after {MAX_ATTEMPTS} attempts; the last got {last}")


if __name__ == "__main__":
    ${fillIn('#', parts)}
    client = Client(${defaults})
    try:
        print(client.send(${pythonLiteral(example, '        ')}))
    except (ServiceError, HostError, GaveUp) as error:
        raise SystemExit(str(error))
`;
}

/** The same client in plain PHP with the curl extension: the same policy, step for step. */
export function retryingPhpClient(parts: ClientParts): string {
  const { endpoint, statuses, policy, example } = parts;
  const parameters = endpoint.variables.map((variable) => `string $${variableName(variable.name)}`);
  const url = interpolatedUrl(endpoint, (name) => `{$${name}}`);
  const defaults = endpoint.variables.map((variable) => phpString(variable.defaultValue)).join(', ');
  const code = statuses.codeField;
  const retryAfterName = statuses.retryAfter.toLowerCase();
  if (endpoint.method !== 'POST') throw new Error('The PHP retrying client posts with CURLOPT_POST, but the operation is not a POST');

  return `<?php
// A client for one site that follows the retry policy of the errors guide.
// Plain PHP with the curl extension (ext-curl): no Composer package to add.

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
 * Seconds to wait, from a ${statuses.retryAfter} header: a number of seconds or an
 * HTTP date (RFC 9110, section 10.2.3). Null when missing or unreadable.
 */
function retry_after( ?string $value, ?float $now = null ): ?float {
    if ( null === $value ) {
        return null;
    }
    $text = trim( $value );
    if ( ctype_digit( $text ) ) {
        return (float) $text;
    }
    $moment = strtotime( $text );
    if ( false === $moment ) {
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
    public readonly int $status;
    public readonly string $error_code;
    public readonly mixed $data;

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
    public readonly int $status;

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

    public function __construct( ${parameters.join(', ')} ) {
        $this->url = "${url}";
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

    /** One attempt: [status, headers with names in lower case, body], or what went wrong. */
    private function attempt( array $body ): array|string {
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
        $wait = $this->not_before - microtime( true );
        if ( $wait > 0 ) {
            usleep( (int) ( $wait * 1e6 ) );
        }
        $this->not_before = microtime( true ) + INTERVAL;
    }

    // A wait holds back every later request to this site, not only this one.
    private function hold_back( float $seconds ): void {
        $this->not_before = max( $this->not_before, microtime( true ) + $seconds );
    }
}

${fillIn('//', parts)}
$client = new Client( ${defaults} );
try {
    print_r( $client->send( ${phpLiteral(example, '    ')} ) );
} catch ( ServiceError | HostError | GaveUp $error ) {
    fwrite( STDERR, $error->getMessage() . PHP_EOL );
    exit( 1 );
}
`;
}

const clientWriters = { javascript: retryingJavascriptClient, php: retryingPhpClient, python: retryingPythonClient } as const;

/** The retrying clients, for the errors guide's tabs, in the order of the action pages' tabs. */
export function retryingClientSamples(endpoint: Endpoint, statuses: SampleStatuses, example: Record<string, unknown>, policy: RetryPolicy = retryPolicy): CodeSample[] {
  const parts: ClientParts = { endpoint, statuses, policy, example };
  const hasClient = (language: SampleLanguage): language is keyof typeof clientWriters => language in clientWriters;
  return sampleLanguages.flatMap(({ language, label, highlight }) => (hasClient(language) ? [{ language, label, highlight, code: clientWriters[language](parts) }] : []));
}
