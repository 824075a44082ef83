<?php
// The few WordPress HTTP functions the PHP samples call, written over PHP's own HTTP stream so
// the samples run outside WordPress exactly as they are printed. Each follows the documented
// behaviour of its WordPress namesake for the arguments the samples pass.

final class WP_Error {
    private string $message;
    public function __construct( string $code, string $message ) { $this->message = $message; }
    public function get_error_message(): string { return $this->message; }
}

function is_wp_error( $thing ): bool { return $thing instanceof WP_Error; }

function wp_json_encode( $data ) { return json_encode( $data ); }

function wp_remote_post( string $url, array $args = array() ) {
    $headers = array();
    foreach ( $args['headers'] ?? array() as $name => $value ) { $headers[] = "$name: $value"; }
    $context = stream_context_create( array( 'http' => array(
        'method'          => $args['method'] ?? 'POST',
        'header'          => implode( "\r\n", $headers ),
        'content'         => $args['body'] ?? '',
        'timeout'         => (float) ( $args['timeout'] ?? 5 ),
        'ignore_errors'   => true,
        'follow_location' => ( $args['redirection'] ?? 5 ) > 0 ? 1 : 0,
        'max_redirects'   => max( 1, (int) ( $args['redirection'] ?? 5 ) ),
        'protocol_version' => 1.1,
    ) ) );
    $body = @file_get_contents( $url, false, $context );
    if ( false === $body || ! isset( $http_response_header ) ) {
        return new WP_Error( 'http_request_failed', error_get_last()['message'] ?? 'no answer' );
    }
    $status = 0;
    $response_headers = array();
    foreach ( $http_response_header as $line ) {
        if ( preg_match( '#^HTTP/\S+ (\d{3})#', $line, $match ) ) { $status = (int) $match[1]; $response_headers = array(); continue; }
        $parts = explode( ':', $line, 2 );
        if ( count( $parts ) === 2 ) { $response_headers[ strtolower( trim( $parts[0] ) ) ] = trim( $parts[1] ); }
    }
    return array( 'response' => array( 'code' => $status ), 'headers' => $response_headers, 'body' => $body );
}

function wp_remote_retrieve_response_code( $response ) { return is_array( $response ) ? $response['response']['code'] : ''; }
function wp_remote_retrieve_body( $response ) { return is_array( $response ) ? $response['body'] : ''; }
function wp_remote_retrieve_header( $response, string $name ) {
    return is_array( $response ) ? ( $response['headers'][ strtolower( $name ) ] ?? '' ) : '';
}
