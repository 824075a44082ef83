<?php
/**
 * The subscriptions and their history, in two tables of the site's database.
 */

defined( 'ABSPATH' ) || exit;

const SERVICE_REFERENCE_SCHEMA_VERSION = '1';

function service_reference_subscriptions_table() {
	global $wpdb;
	return $wpdb->prefix . 'service_reference_subscriptions';
}

function service_reference_history_table() {
	global $wpdb;
	return $wpdb->prefix . 'service_reference_history';
}

/**
 * A must-use plugin has no activation hook, so the tables are created (or brought up to date) on
 * the first load after the schema version changes.
 */
function service_reference_install_tables() {
	if ( get_option( 'service_reference_schema_version' ) === SERVICE_REFERENCE_SCHEMA_VERSION ) {
		return;
	}
	global $wpdb;
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$charset_collate = $wpdb->get_charset_collate();
	$subscriptions   = service_reference_subscriptions_table();
	$history         = service_reference_history_table();
	// dbDelta wants two spaces after PRIMARY KEY and one definition per line.
	dbDelta(
		"CREATE TABLE {$subscriptions} (
			id bigint(20) unsigned NOT NULL,
			status varchar(64) NOT NULL,
			PRIMARY KEY  (id)
		) ENGINE=InnoDB {$charset_collate};
		CREATE TABLE {$history} (
			id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
			subscription_id bigint(20) unsigned NOT NULL,
			action varchar(64) NOT NULL,
			previous_status varchar(64) NOT NULL,
			new_status varchar(64) NOT NULL,
			note text NULL,
			created_at datetime NOT NULL,
			PRIMARY KEY  (id),
			KEY subscription_id (subscription_id)
		) ENGINE=InnoDB {$charset_collate};"
	);
	update_option( 'service_reference_schema_version', SERVICE_REFERENCE_SCHEMA_VERSION );
}

/**
 * Runs a query and throws when the database refuses it, so that the caller rolls back.
 *
 * @return int|bool The number of rows the query touched.
 */
function service_reference_query( $sql ) {
	global $wpdb;
	$result = $wpdb->query( $sql );
	if ( false === $result ) {
		throw new RuntimeException( 'The database refused a query: ' . $wpdb->last_error );
	}
	return $result;
}

/**
 * Places subscriptions in the given statuses, adding those that do not exist yet.
 *
 * @param array $subscriptions Items with `id` and `status`.
 */
function service_reference_place_subscriptions( array $subscriptions ) {
	global $wpdb;
	$table = service_reference_subscriptions_table();
	foreach ( $subscriptions as $subscription ) {
		service_reference_query(
			$wpdb->prepare(
				"INSERT INTO {$table} (id, status) VALUES (%d, %s) ON DUPLICATE KEY UPDATE status = VALUES(status)",
				$subscription['id'],
				$subscription['status']
			)
		);
	}
}

/** Removes every subscription and its history. */
function service_reference_drop_data() {
	service_reference_query( 'DELETE FROM ' . service_reference_history_table() );
	service_reference_query( 'DELETE FROM ' . service_reference_subscriptions_table() );
}

/** Every subscription, by ID. */
function service_reference_list_subscriptions() {
	global $wpdb;
	return $wpdb->get_results( 'SELECT id, status FROM ' . service_reference_subscriptions_table() . ' ORDER BY id', ARRAY_A );
}
