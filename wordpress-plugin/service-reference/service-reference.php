<?php
/**
 * Plugin Name: Service Reference (a reference implementation, NOT the product's plugin)
 * Description: A reference implementation of the published contract of the Subscription Lifecycle Action Service, for testing and reading. It is NOT the product's plugin: it keeps bare subscriptions in a table of its own and does nothing else.
 * Version: 0.1.0
 * Requires at least: 6.1
 * Requires PHP: 7.0
 * License: GPL-2.0-or-later
 *
 * Everything the endpoint knows about itself (route, fields, actions, lifecycle, error codes)
 * comes from generated/contract.php, which `npm run wordpress -- generate` writes from the
 * OpenAPI document.
 *
 * PHP 7.0 for `??` and `catch ( Throwable )`, nothing newer; WordPress 6.1, the version the
 * project runs it on (`WP_REST_Request::is_json_content_type()` needs 5.6).
 */

defined( 'ABSPATH' ) || exit;

define( 'SERVICE_REFERENCE_DIR', __DIR__ );

require_once __DIR__ . '/includes/contract.php';
require_once __DIR__ . '/includes/store.php';
require_once __DIR__ . '/includes/endpoint.php';

add_action( 'plugins_loaded', 'service_reference_install_tables' );
add_action( 'rest_api_init', 'service_reference_register_route' );
add_filter( 'rest_request_before_callbacks', 'service_reference_check_action_fields', 10, 3 );
add_filter( 'rest_pre_dispatch', 'service_reference_refuse_without_contract', 10, 3 );
add_action( 'admin_notices', 'service_reference_missing_contract_notice' );
