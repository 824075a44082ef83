<?php
/**
 * The generated contract, and what the plugin does without it.
 */

defined( 'ABSPATH' ) || exit;

/**
 * The contract generated from the OpenAPI document, or null when the file is missing.
 *
 * @return array|null
 */
function service_reference_contract() {
	static $contract = false;
	if ( false === $contract ) {
		$file     = service_reference_contract_file();
		$contract = is_readable( $file ) ? require $file : null;
		if ( ! is_array( $contract ) ) {
			$contract = null;
		}
	}
	return $contract;
}

function service_reference_contract_file() {
	return SERVICE_REFERENCE_DIR . '/generated/contract.php';
}

function service_reference_missing_contract_message() {
	return sprintf(
		'The Service Reference plugin has no contract: %s is missing. Run `npm run wordpress -- generate` in the project to write it from the OpenAPI document.',
		service_reference_contract_file()
	);
}

function service_reference_missing_contract_notice() {
	if ( null !== service_reference_contract() || ! current_user_can( 'activate_plugins' ) ) {
		return;
	}
	printf( '<div class="notice notice-error"><p>%s</p></div>', esc_html( service_reference_missing_contract_message() ) );
}

/**
 * Without its contract the plugin cannot tell its route from any other, so it answers every REST
 * request with a 500 that says what is missing, rather than letting clients reach a site that
 * only looks like it serves the endpoint.
 */
function service_reference_refuse_without_contract( $result, $server, $request ) {
	if ( null !== $result || null !== service_reference_contract() ) {
		return $result;
	}
	return new WP_Error( 'service_reference_contract_missing', service_reference_missing_contract_message(), array( 'status' => 500 ) );
}

/**
 * A WP_Error of the contract, by the situation the generated file names it after.
 *
 * @param string $situation One of the keys of the contract's `errors`.
 * @param string $message   Overrides the document's message when it depends on the request.
 * @param array  $details   More members of `data`.
 */
function service_reference_error( $situation, $message = null, array $details = array() ) {
	$contract = service_reference_contract();
	$error    = $contract['errors'][ $situation ];
	return new WP_Error(
		$error['code'],
		null === $message ? $error['message'] : $message,
		array_merge( array( $contract['data']['status'] => $error['status'] ), $details )
	);
}
