<?php
/**
 * The endpoint: one REST route whose arguments, actions and answers come from the contract.
 *
 * WordPress checks the route's arguments, then runs `rest_request_before_callbacks`, then the
 * permission callback, then the callback. The plugin keeps that order, so every 400 comes before
 * the 401 of a wrong key.
 */

defined( 'ABSPATH' ) || exit;

function service_reference_register_route() {
	$contract = service_reference_contract();
	if ( null === $contract ) {
		return;
	}
	register_rest_route(
		$contract['namespace'],
		$contract['route'],
		array(
			'methods'             => $contract['method'],
			'callback'            => 'service_reference_perform_action',
			'permission_callback' => 'service_reference_check_key',
			'args'                => $contract['args'],
		)
	);
}

/**
 * The JSON body as an array; a body that is not a JSON object carries no fields.
 *
 * @param WP_REST_Request $request The request.
 */
function service_reference_json_body( $request ) {
	$body = $request->get_json_params();
	return is_array( $body ) ? $body : array();
}

/**
 * The JSON body as the client sent it, before core sanitised the route's arguments in it (which
 * turns a null into its type's cast, '' for a string); a body that is not JSON carries no fields.
 *
 * @param WP_REST_Request $request The request.
 */
function service_reference_sent_body( $request ) {
	if ( ! $request->is_json_content_type() ) {
		return array();
	}
	$sent = json_decode( $request->get_body(), true );
	return is_array( $sent ) ? $sent : array();
}

/**
 * The checks of the selected action that a route's `args` cannot express: the fields this action
 * requires, and no field it does not take. Only on this route, and only when nothing failed before.
 *
 * @param mixed           $response Null, or what an earlier check answered.
 * @param array           $handler  The route's handler.
 * @param WP_REST_Request $request  The request.
 */
function service_reference_check_action_fields( $response, $handler, $request ) {
	if ( null !== $response || ! isset( $handler['callback'] ) || 'service_reference_perform_action' !== $handler['callback'] ) {
		return $response;
	}
	$contract = service_reference_contract();
	$fields   = $contract['fields'];
	$action   = $contract['actions'][ $request->get_param( $fields['selector'] ) ] ?? null;
	if ( null === $action ) {
		return $response;
	}
	$body = service_reference_json_body( $request );
	// A null counts as absent, as in core's own check of a required argument; by now core has
	// sanitised it into '', so it is read from the body as sent.
	$sent = service_reference_sent_body( $request );

	$missing = array();
	foreach ( $action['required'] as $name ) {
		// The key has its own answer, the 401, when it is missing.
		if ( $name !== $fields['credential'] && ! isset( $sent[ $name ] ) ) {
			$missing[] = $name;
		}
	}
	if ( $missing ) {
		return service_reference_error(
			'missing_parameter',
			sprintf( 'Missing parameter(s): %s', implode( ', ', $missing ) ),
			array( $contract['data']['params'] => $missing )
		);
	}

	$unknown = array();
	foreach ( array_keys( $body ) as $name ) {
		if ( ! in_array( $name, $action['allowed'], true ) ) {
			$unknown[ $name ] = sprintf( '%s is not a field that %s accepts.', $name, $request->get_param( $fields['selector'] ) );
		}
	}
	if ( $unknown ) {
		return service_reference_error(
			'invalid_parameter',
			sprintf( 'Invalid parameter(s): %s', implode( ', ', array_keys( $unknown ) ) ),
			// An object even when the names are "0", "1", ... in order, which json_encode would make a list.
			array( $contract['data']['params'] => (object) $unknown )
		);
	}
	return $response;
}

/**
 * The key travels in the JSON body only, never in the query string or a form.
 *
 * @param WP_REST_Request $request The request.
 * @return true|WP_Error
 */
function service_reference_check_key( $request ) {
	$contract = service_reference_contract();
	$body     = service_reference_json_body( $request );
	$sent     = $body[ $contract['fields']['credential'] ] ?? null;
	$site_key = get_option( 'service_reference_api_key' );
	if ( is_string( $site_key ) && '' !== $site_key && is_string( $sent ) && hash_equals( $site_key, $sent ) ) {
		return true;
	}
	return service_reference_error( 'invalid_key' );
}

/**
 * What the action does to a subscription in `$current`: `changed` with the new status,
 * `unchanged` when the target already holds, or `refused`.
 *
 * @param array       $transition The action's transition from the contract.
 * @param string      $current    The subscription's status.
 * @param string|null $requested  The status a chosen transition names in the request.
 */
function service_reference_outcome( array $transition, $current, $requested ) {
	if ( 'fixed' === $transition['kind'] ) {
		if ( $current === $transition['to'] ) {
			return array( 'kind' => 'unchanged' );
		}
		return in_array( $current, $transition['from'], true ) ? array( 'kind' => 'changed', 'to' => $transition['to'] ) : array( 'kind' => 'refused' );
	}
	if ( null === $requested ) {
		return array( 'kind' => 'refused' );
	}
	if ( $requested === $current ) {
		return array( 'kind' => 'unchanged' );
	}
	$targets = $transition['moves'][ $current ] ?? array();
	return in_array( $requested, $targets, true ) ? array( 'kind' => 'changed', 'to' => $requested ) : array( 'kind' => 'refused' );
}

function service_reference_refusal_message( $action_name, array $transition, $current, $requested ) {
	if ( 'chosen' === $transition['kind'] && null !== $requested && isset( $transition['moves'][ $current ] ) ) {
		return sprintf( '%s cannot move a subscription that is %s to %s.', $action_name, $current, $requested );
	}
	return sprintf( '%s does not apply to a subscription that is %s.', $action_name, $current );
}

/**
 * Applies the action inside one transaction, the subscription's row locked until it ends.
 *
 * @param WP_REST_Request $request The request, its arguments already checked.
 */
function service_reference_perform_action( $request ) {
	global $wpdb;
	$contract        = service_reference_contract();
	$fields          = $contract['fields'];
	$action_name     = $request->get_param( $fields['selector'] );
	$action          = $contract['actions'][ $action_name ];
	$transition      = $action['transition'];
	$subscription_id = (int) $request->get_param( $fields['subject'] );
	// The contract's fields travel in the JSON body only, never in the query string or a form.
	$body      = service_reference_json_body( $request );
	$requested = 'chosen' === $transition['kind'] ? ( $body[ $transition['field'] ] ?? null ) : null;
	$note      = null === $fields['note'] ? null : ( $body[ $fields['note'] ] ?? null );

	// JSON numbers past PHP's integers arrive as floats, which the sanitising integer cast wraps
	// round; the body as sent still has them.
	$sent    = service_reference_sent_body( $request );
	$sent_id = $sent[ $fields['subject'] ] ?? null;
	if ( is_float( $sent_id ) && $sent_id >= PHP_INT_MAX ) {
		return service_reference_error( 'subscription_not_found', sprintf( 'Subscription %.0f was not found.', $sent_id ) );
	}

	try {
		service_reference_query( 'START TRANSACTION' );
		$current = $wpdb->get_var(
			$wpdb->prepare( 'SELECT status FROM ' . service_reference_subscriptions_table() . ' WHERE id = %d FOR UPDATE', $subscription_id )
		);
		if ( '' !== $wpdb->last_error ) {
			throw new RuntimeException( 'The database refused a query: ' . $wpdb->last_error );
		}
		if ( null === $current ) {
			service_reference_query( 'ROLLBACK' );
			return service_reference_error( 'subscription_not_found', sprintf( 'Subscription %d was not found.', $subscription_id ) );
		}

		$outcome = service_reference_outcome( $transition, $current, $requested );
		if ( 'refused' === $outcome['kind'] ) {
			service_reference_query( 'ROLLBACK' );
			return service_reference_error(
				'transition_not_allowed',
				service_reference_refusal_message( $action_name, $transition, $current, $requested ),
				array(
					$contract['data']['current_status']  => $current,
					$contract['data']['allowed_actions'] => $contract['allowed_actions'][ $current ] ?? array(),
				)
			);
		}

		$after = 'changed' === $outcome['kind'] ? $outcome['to'] : $current;
		if ( 'changed' === $outcome['kind'] ) {
			service_reference_query(
				$wpdb->prepare( 'UPDATE ' . service_reference_subscriptions_table() . ' SET status = %s WHERE id = %d', $after, $subscription_id )
			);
			$history = array(
				'subscription_id' => $subscription_id,
				'action'          => $action_name,
				'previous_status' => $current,
				'new_status'      => $after,
				'created_at'      => current_time( 'mysql', true ),
			);
			if ( null !== $note ) {
				$history['note'] = $note;
			}
			if ( false === $wpdb->insert( service_reference_history_table(), $history ) ) {
				throw new RuntimeException( 'The history could not be written: ' . $wpdb->last_error );
			}
		}
		service_reference_query( 'COMMIT' );
	} catch ( Throwable $failure ) {
		$wpdb->query( 'ROLLBACK' );
		error_log( 'service-reference: ' . $action_name . ' on ' . $subscription_id . ' failed: ' . $failure );
		return service_reference_error( 'internal_error' );
	}

	$result = $contract['result'];
	return new WP_REST_Response(
		array(
			$result['success_flag']    => true,
			$result['action']          => $action_name,
			$result['subject']         => $subscription_id,
			$result['previous_status'] => $current,
			$result['status']          => $after,
			$result['changed']         => 'changed' === $outcome['kind'],
		),
		$contract['success_status']
	);
}
