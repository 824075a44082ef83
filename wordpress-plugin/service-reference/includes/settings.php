<?php
/**
 * Settings → Service Reference: the key, the subscriptions, the throttle, and a reset to the
 * sandbox's defaults. Every change needs the manage_options capability and the form's nonce.
 */

defined( 'ABSPATH' ) || exit;

const SERVICE_REFERENCE_SETTINGS_PAGE = 'service-reference';

function service_reference_add_settings_page() {
	add_options_page( 'Service Reference', 'Service Reference', 'manage_options', SERVICE_REFERENCE_SETTINGS_PAGE, 'service_reference_render_settings_page' );
}

function service_reference_settings_url( $message = null ) {
	$url = admin_url( 'options-general.php?page=' . SERVICE_REFERENCE_SETTINGS_PAGE );
	return null === $message ? $url : add_query_arg( 'service_reference_message', rawurlencode( $message ), $url );
}

function service_reference_render_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$defaults = service_reference_test_double();
	echo '<div class="wrap"><h1>Service Reference</h1>';
	echo '<div class="notice notice-warning inline"><p>This plugin is a test double of the Subscription Lifecycle Action Service: it answers as the published contract says, with made-up subscriptions in tables of its own. It is not the product\'s plugin and touches no real subscription. Use it on a local or staging site only; it refuses to run where the environment type is production.</p></div>';
	if ( isset( $_GET['service_reference_message'] ) ) {
		printf( '<div class="notice notice-info inline"><p>%s</p></div>', esc_html( sanitize_text_field( wp_unslash( $_GET['service_reference_message'] ) ) ) );
	}
	if ( service_reference_refuses_to_run() || null === $defaults || null === service_reference_contract() ) {
		echo '<p>Nothing to set here until the plugin can run: see the notice above.</p></div>';
		return;
	}
	$subscriptions = array_map(
		function ( $row ) {
			return array(
				'id'     => (int) $row['id'],
				'status' => $row['status'],
			);
		},
		service_reference_list_subscriptions()
	);
	$throttle = $defaults['throttle'];
	echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
	wp_nonce_field( 'service_reference_save' );
	echo '<input type="hidden" name="action" value="service_reference_save">';
	echo '<table class="form-table" role="presentation">';
	printf(
		'<tr><th scope="row"><label for="service-reference-key">API key</label></th><td><input id="service-reference-key" name="api_key" class="regular-text code" value="%s"><p class="description">The key requests must carry. Default: <code>%s</code></p></td></tr>',
		esc_attr( (string) get_option( 'service_reference_api_key', '' ) ),
		esc_html( $defaults['default_api_key'] )
	);
	printf(
		'<tr><th scope="row"><label for="service-reference-subscriptions">Subscriptions</label></th><td><textarea id="service-reference-subscriptions" name="subscriptions" rows="12" class="large-text code">%s</textarea><p class="description">A JSON array such as <code>[{"id": 1, "status": "%s"}]</code>; each status one of: %s. Saving replaces every subscription and drops their history.</p></td></tr>',
		esc_textarea( wp_json_encode( $subscriptions, JSON_PRETTY_PRINT ) ),
		esc_html( service_reference_contract()['states'][0] ),
		esc_html( implode( ', ', service_reference_contract()['states'] ) )
	);
	printf(
		'<tr><th scope="row"><label for="service-reference-throttle">Throttle the next requests</label></th><td><input id="service-reference-throttle" name="throttle_next" type="number" min="0" max="%1$d" value="%2$d"> <label for="service-reference-retry-after">with %3$s</label> <input id="service-reference-retry-after" name="retry_after" type="number" min="0" value="%4$d"> seconds<p class="description">The next N requests to the endpoint answer %5$d with %3$s, as a throttling host would; 0 (the default) throttles none. At most %1$d.</p></td></tr>',
		(int) $throttle['max_requests'],
		(int) get_option( 'service_reference_throttle_next', 0 ),
		esc_html( $throttle['header'] ),
		(int) get_option( 'service_reference_retry_after', $throttle['default_retry_after'] ),
		(int) $throttle['status']
	);
	echo '</table>';
	submit_button( 'Save changes' );
	echo '</form>';
	echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
	wp_nonce_field( 'service_reference_reset' );
	echo '<input type="hidden" name="action" value="service_reference_reset">';
	submit_button( 'Reset to the sandbox\'s key and subscriptions', 'secondary' );
	echo '</form></div>';
}

/**
 * The subscriptions a form sent, or a sentence saying what is wrong with them.
 *
 * @param string $text The JSON the form sent.
 * @return array|string
 */
function service_reference_read_subscriptions( $text ) {
	$value = json_decode( $text, true );
	if ( ! is_array( $value ) || ( array() !== $value && array_keys( $value ) !== range( 0, count( $value ) - 1 ) ) ) {
		return 'The subscriptions are not a JSON array such as [{"id": 1, "status": "active"}].';
	}
	$states = service_reference_contract()['states'];
	$seen   = array();
	foreach ( $value as $index => $item ) {
		$where = sprintf( 'Item %d', $index + 1 );
		if ( ! is_array( $item ) || ! isset( $item['id'], $item['status'] ) || count( $item ) !== 2 ) {
			return $where . ' is not an object with only "id" and "status".';
		}
		if ( ! is_int( $item['id'] ) || $item['id'] < 1 ) {
			return $where . ': "id" is not a whole number of at least 1.';
		}
		if ( ! in_array( $item['status'], $states, true ) ) {
			return $where . ': "status" is not one of ' . implode( ', ', $states ) . '.';
		}
		if ( isset( $seen[ $item['id'] ] ) ) {
			return $where . sprintf( ': the id %d appears twice.', $item['id'] );
		}
		$seen[ $item['id'] ] = true;
	}
	return $value;
}

function service_reference_check_settings_request( $nonce_action ) {
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_die( esc_html__( 'You may not change the Service Reference settings.', 'service-reference' ), 403 );
	}
	check_admin_referer( $nonce_action );
	if ( service_reference_refuses_to_run() || null === service_reference_test_double() || null === service_reference_contract() ) {
		wp_safe_redirect( service_reference_settings_url() );
		exit;
	}
}

function service_reference_save_settings() {
	service_reference_check_settings_request( 'service_reference_save' );
	$throttle      = service_reference_test_double()['throttle'];
	$key           = isset( $_POST['api_key'] ) ? trim( sanitize_text_field( wp_unslash( $_POST['api_key'] ) ) ) : '';
	$subscriptions = service_reference_read_subscriptions( isset( $_POST['subscriptions'] ) ? wp_unslash( $_POST['subscriptions'] ) : '' );
	$throttle_next = isset( $_POST['throttle_next'] ) ? (int) $_POST['throttle_next'] : 0;
	$retry_after   = isset( $_POST['retry_after'] ) ? (int) $_POST['retry_after'] : $throttle['default_retry_after'];
	$problem       = null;
	if ( '' === $key ) {
		$problem = 'The API key is empty; nothing was saved.';
	} elseif ( is_string( $subscriptions ) ) {
		$problem = $subscriptions . ' Nothing was saved.';
	} elseif ( $throttle_next < 0 || $throttle_next > $throttle['max_requests'] || $retry_after < 0 ) {
		$problem = sprintf( 'Throttle between 0 and %d requests, with a wait of 0 seconds or more; nothing was saved.', $throttle['max_requests'] );
	}
	if ( null !== $problem ) {
		wp_safe_redirect( service_reference_settings_url( $problem ) );
		exit;
	}
	update_option( 'service_reference_api_key', $key );
	update_option( 'service_reference_throttle_next', $throttle_next );
	update_option( 'service_reference_retry_after', $retry_after );
	service_reference_drop_data();
	service_reference_place_subscriptions( $subscriptions );
	wp_safe_redirect( service_reference_settings_url( 'Saved.' ) );
	exit;
}

function service_reference_reset_settings() {
	service_reference_check_settings_request( 'service_reference_reset' );
	service_reference_restore_defaults();
	wp_safe_redirect( service_reference_settings_url( 'The sandbox\'s key and subscriptions are back; the history is gone and nothing is throttled.' ) );
	exit;
}
