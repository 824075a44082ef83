import type { Endpoint } from '../../contract/model.ts';
import { contractError } from '../../contract/schemas.ts';
import { phpLiteral, phpString } from '../literals.ts';
import { retryPolicy } from '../retry-policy.ts';
import { answerComment, fillInComment, interpolatedUrl, plainPermalinkComment, thingsToFillIn, variableDeclarations } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';

/** An action's sample for code running inside WordPress: one `wp_remote_post()`. */
export function wordpressSample(endpoint: Endpoint, body: unknown, statuses: SampleStatuses): string {
  const code = statuses.codeField;
  // `wp_remote_post()` sends a POST, as the one operation asks.
  if (endpoint.method !== 'POST') throw contractError(endpoint.pointer, 'the PHP sample posts with wp_remote_post(), but the operation is not a POST');
  return `<?php
${fillInComment('//', thingsToFillIn(endpoint, body))}
${variableDeclarations(endpoint, (name, value) => `$${name} = ${phpString(value)};`)}

${plainPermalinkComment('//', endpoint, (name) => `{$${name}}`)}$response = wp_remote_post(
    "${interpolatedUrl(endpoint, (name) => `{$${name}}`)}",
    array(
        'headers'     => array( 'Content-Type' => 'application/json' ),
        'body'        => wp_json_encode( ${phpLiteral(body, '        ')} ),
        'timeout'     => ${retryPolicy.attemptTimeoutSeconds},
        'redirection' => 0,
    )
);
if ( is_wp_error( $response ) ) {
    throw new RuntimeException( $response->get_error_message() );
}
${answerComment('//', statuses)}
$type   = (string) wp_remote_retrieve_header( $response, 'content-type' );
$answer = 0 === stripos( $type, 'application/json' ) ? json_decode( wp_remote_retrieve_body( $response ), true ) : null;
$status = wp_remote_retrieve_response_code( $response );
if ( ${statuses.success} === $status ) {
    print_r( $answer );
} elseif ( isset( $answer['${code}'] ) ) {
    throw new RuntimeException( $answer['${code}'] );
} else {
    $wait = wp_remote_retrieve_header( $response, '${statuses.retryAfter.toLowerCase()}' );
    throw new RuntimeException( "HTTP {$status} from the host, ${statuses.retryAfter}: {$wait}" );
}
`;
}
