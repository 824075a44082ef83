<?php
/**
 * What makes the installed plugin a test double: it refuses production sites, starts with a fresh
 * sandbox's subscriptions and key, and can throttle as a host would.
 */

defined( 'ABSPATH' ) || exit;

/**
 * The generated defaults (generated/test-double.php): the first key, the subscriptions, and the
 * throttled answer; null when the file is missing.
 *
 * @return array|null
 */
function service_reference_test_double() {
	static $settings = false;
	if ( false === $settings ) {
		$file     = SERVICE_REFERENCE_DIR . '/generated/test-double.php';
		$settings = is_readable( $file ) ? require $file : null;
		if ( ! is_array( $settings ) ) {
			$settings = null;
		}
	}
	return $settings;
}

/** Whether this site is one the plugin must not serve: WordPress names it production. */
function service_reference_refuses_to_run() {
	return 'production' === wp_get_environment_type();
}

function service_reference_production_notice() {
	if ( ! service_reference_refuses_to_run() || ! current_user_can( 'activate_plugins' ) ) {
		return;
	}
	printf(
		'<div class="notice notice-error"><p>%s</p></div>',
		esc_html__( 'Service Reference is a test double and does not run on a production site: it serves no route here. On a local site, set the environment type in wp-config.php with define( \'WP_ENVIRONMENT_TYPE\', \'local\' ); (wp-env, Local and DDEV set it for you).', 'service-reference' )
	);
}

/**
 * On activation: the tables, and, when the plugin has never held any, the sandbox's subscriptions
 * and key. A reactivation keeps what the site holds; the settings page's reset starts again.
 */
function service_reference_activate() {
	service_reference_install_tables();
	if ( false === get_option( 'service_reference_api_key' ) ) {
		service_reference_restore_defaults();
	}
}

/** The sandbox's key and subscriptions again, with no history and no throttling. */
function service_reference_restore_defaults() {
	$defaults = service_reference_test_double();
	if ( null === $defaults ) {
		return;
	}
	update_option( 'service_reference_api_key', $defaults['default_api_key'] );
	update_option( 'service_reference_throttle_next', 0 );
	update_option( 'service_reference_retry_after', $defaults['throttle']['default_retry_after'] );
	service_reference_drop_data();
	service_reference_place_subscriptions( $defaults['seed'] );
}

/** Whether the request is for the endpoint's route. */
function service_reference_is_endpoint_request( $request ) {
	$contract = service_reference_contract();
	if ( null === $contract ) {
		return false;
	}
	return untrailingslashit( $request->get_route() ) === '/' . $contract['namespace'] . $contract['route'];
}

/**
 * While the throttle setting counts requests down, the endpoint answers as a throttling host in
 * front of it would: the contract's status with Retry-After, nothing reaching a subscription.
 *
 * @param mixed           $result  Null, or an earlier answer.
 * @param WP_REST_Server  $server  The server.
 * @param WP_REST_Request $request The request.
 */
function service_reference_throttle( $result, $server, $request ) {
	$defaults = service_reference_test_double();
	if ( null !== $result || null === $defaults || ! service_reference_is_endpoint_request( $request ) ) {
		return $result;
	}
	$remaining = (int) get_option( 'service_reference_throttle_next', 0 );
	if ( $remaining <= 0 ) {
		return $result;
	}
	update_option( 'service_reference_throttle_next', $remaining - 1 );
	$throttle = $defaults['throttle'];
	$contract = service_reference_contract();
	$response = new WP_REST_Response(
		array(
			'code'    => 'service_reference_throttled',
			'message' => 'Too many requests: the Service Reference plugin is set to throttle this request. Please wait before sending another request.',
			'data'    => array( $contract['data']['status'] => $throttle['status'] ),
		),
		$throttle['status']
	);
	$response->header( $throttle['header'], (string) (int) get_option( 'service_reference_retry_after', $throttle['default_retry_after'] ) );
	return $response;
}
