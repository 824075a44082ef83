<?php
/**
 * Plugin Name: Service Reference (a reference implementation, NOT the product's plugin)
 * Description: A test double of the Subscription Lifecycle Action Service, for testing a client against your own WordPress: it answers as the published contract says, with made-up subscriptions in tables of its own. It is NOT the product's plugin, touches no real subscription, and refuses to run on a site whose environment type is production.
 * Version: 0.1.0
 * Requires at least: 6.1
 * Requires PHP: 7.4
 * License: GPL-2.0-or-later
 *
 * Everything the endpoint knows about itself (route, fields, actions, lifecycle, error codes)
 * comes from generated/contract.php, which `npm run wordpress -- generate` writes from the
 * OpenAPI document.
 *
 * PHP 7.4, the floor the project's checker proves for every PHP file the zip carries
 * (src/clients/php/php-74-syntax.ts); WordPress 6.1, the version the project runs it on
 * (`WP_REST_Request::is_json_content_type()` needs 5.6, `wp_get_environment_type()` 5.5).
 */

defined( 'ABSPATH' ) || exit;

define( 'SERVICE_REFERENCE_DIR', __DIR__ );

require_once __DIR__ . '/includes/contract.php';
require_once __DIR__ . '/includes/store.php';
require_once __DIR__ . '/includes/endpoint.php';
require_once __DIR__ . '/includes/test-double.php';
require_once __DIR__ . '/includes/settings.php';

// Activation fires only for an installed plugin, never for the must-use loading of `npm run wordpress`.
register_activation_hook( __FILE__, 'service_reference_activate' );
add_action( 'plugins_loaded', 'service_reference_install_tables' );
add_action( 'admin_notices', 'service_reference_production_notice' );
add_action( 'admin_menu', 'service_reference_add_settings_page' );
add_action( 'admin_post_service_reference_save', 'service_reference_save_settings' );
add_action( 'admin_post_service_reference_reset', 'service_reference_reset_settings' );

// A test double has no place on a live site: there it registers no route and says why.
if ( service_reference_refuses_to_run() ) {
	return;
}

add_filter( 'rest_pre_dispatch', 'service_reference_throttle', 5, 3 );
add_action( 'rest_api_init', 'service_reference_register_route' );
add_filter( 'rest_request_before_callbacks', 'service_reference_check_action_fields', 10, 3 );
add_filter( 'rest_pre_dispatch', 'service_reference_refuse_without_contract', 10, 3 );
add_action( 'admin_notices', 'service_reference_missing_contract_notice' );
