import type { Endpoint } from '../../contract/model.ts';
import { contractError } from '../../contract/schemas.ts';
import { phpLiteral, phpString } from '../literals.ts';
import { phpFloorPhrase } from '../php-floor.ts';
import { retryPolicy } from '../retry-policy.ts';
import { answerComment, fillInComment, interpolatedUrl, plainPermalinkComment, thingsToFillIn, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';

const { connectTimeoutSeconds, attemptTimeoutSeconds } = retryPolicy;

/**
 * A PHP closure that reads the answer's headers into `$headers`, names in lower case, as curl
 * hands them over one line at a time; the plain-PHP sample and the PHP retrying client share it.
 */
export function phpHeaderCollector(indent: string): string {
  return `function ( $curl, string $line ) use ( &$headers ): int {
${indent}    $parts = explode( ':', $line, 2 );
${indent}    if ( 2 === count( $parts ) ) {
${indent}        $headers[ strtolower( trim( $parts[0] ) ) ] = trim( $parts[1] );
${indent}    }
${indent}    return strlen( $line );
${indent}}`;
}

/** An action's sample in plain PHP with the curl extension. */
export function phpSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  if (endpoint.method !== 'POST') throw contractError(endpoint.pointer, 'the PHP sample posts with CURLOPT_POST, but the operation is not a POST');
  return `<?php
// Plain ${phpFloorPhrase} with the curl extension (ext-curl): no Composer package to add.
${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `$${name} = ${phpString(value)};`)}

$payload = ${phpLiteral(body)};

$headers = array();
$collect = ${phpHeaderCollector('')};

${plainPermalinkComment('//', endpoint, (name) => `{$${name}}`)}$curl = curl_init( "${interpolatedUrl(endpoint, (name) => `{$${name}}`)}" );
curl_setopt_array(
    $curl,
    array(
        CURLOPT_POST           => true,
        CURLOPT_HTTPHEADER     => array( 'Content-Type: application/json' ),
        CURLOPT_POSTFIELDS     => json_encode( $payload ),
        CURLOPT_CONNECTTIMEOUT => ${connectTimeoutSeconds},
        CURLOPT_TIMEOUT        => ${attemptTimeoutSeconds},
        CURLOPT_FOLLOWLOCATION => false,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_HEADERFUNCTION => $collect,
    )
);
$text = curl_exec( $curl );
if ( false === $text ) {
    throw new RuntimeException( curl_error( $curl ) );
}
${answerComment('//', statuses)}
$type   = $headers['content-type'] ?? '';
$answer = 0 === stripos( $type, 'application/json' ) ? json_decode( $text, true ) : null;
$status = curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
if ( ${statuses.success} === $status ) {
    print_r( $answer );
} elseif ( isset( $answer['${code}'] ) ) {
    throw new RuntimeException( $answer['${code}'] );
} else {
    $wait = $headers['${statuses.retryAfter.toLowerCase()}'] ?? '';
    throw new RuntimeException( "HTTP {$status} from the host, ${statuses.retryAfter}: {$wait}" );
}
`;
}
