<?php
/**
 * Changes the local WordPress site from the command line, for `npm run wordpress`.
 *
 *   php site-cli.php CONFIG-NAME HOST:PORT < request.json
 *
 * The request is a JSON object: `command` (`install`, `seed`, `reset` or `activate`), `apiKey`,
 * for `seed` and `reset` the `subscriptions` to place, for `install` `withoutPlugin` (a site that
 * installs the plugin from its zip) and `adminPassword` (for a test that signs in), and for `activate` the `plugin` (its main file, relative to
 * the plugins folder). An installed plugin also takes `restore` (what its settings page's reset
 * button does) and `throttle` (`next` and `retryAfter`, as its settings page sets them). Prints one
 * JSON object: what the site holds.
 */

if ( PHP_SAPI !== 'cli' || $argc !== 3 ) {
	fwrite( STDERR, "usage: php site-cli.php CONFIG-NAME HOST:PORT < request.json\n" );
	exit( 2 );
}

// Debian's wp-config.php picks /etc/wordpress/config-<name>.php from this, as Apache's SetEnv does.
$_SERVER['WORDPRESS_CONFIG'] = $argv[1];
$_SERVER['HTTP_HOST']        = $argv[2];
$_SERVER['REQUEST_URI']      = '/';
$_SERVER['SERVER_PROTOCOL']  = 'HTTP/1.1';
$_SERVER['REQUEST_METHOD']   = 'GET';

$request = json_decode( stream_get_contents( STDIN ), true );
if ( ! is_array( $request ) || ! isset( $request['command'] ) ) {
	fwrite( STDERR, "the request on standard input is not a JSON object with a command\n" );
	exit( 2 );
}

if ( 'install' === $request['command'] ) {
	define( 'WP_INSTALLING', true );
}
require '/usr/share/wordpress/wp-load.php';

function service_reference_cli_install( array $request ) {
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	if ( ! is_blog_installed() ) {
		// The welcome e-mail fails without sendmail; the site is installed all the same.
		// A test that signs in as the administrator gives the password; otherwise nobody knows it.
		$password = isset( $request['adminPassword'] ) ? (string) $request['adminPassword'] : wp_generate_password( 32 );
		wp_install( 'Service reference', 'admin', 'admin@example.invalid', false, '', $password );
	}
	if ( get_option( 'permalink_structure' ) !== '/%postname%/' ) {
		update_option( 'permalink_structure', '/%postname%/' );
		flush_rewrite_rules( false );
	}
}

try {
	if ( 'install' === $request['command'] ) {
		service_reference_cli_install( $request );
	}
	if ( 'activate' === $request['command'] ) {
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		$activated = activate_plugin( (string) $request['plugin'] );
		if ( is_wp_error( $activated ) ) {
			throw new RuntimeException( 'WordPress did not activate ' . $request['plugin'] . ': ' . $activated->get_error_message() );
		}
	}
	if ( ! empty( $request['withoutPlugin'] ) ) {
		echo wp_json_encode(
			array(
				'subscriptions'    => array(),
				'wordpressVersion' => get_bloginfo( 'version' ),
			)
		), "\n";
		exit( 0 );
	}
	if ( ! function_exists( 'service_reference_place_subscriptions' ) ) {
		throw new RuntimeException( 'the reference plugin is not loaded: its must-use loader is missing or the site config does not name it' );
	}
	if ( 'activate' !== $request['command'] ) {
		service_reference_install_tables();
	}
	if ( isset( $request['apiKey'] ) ) {
		update_option( 'service_reference_api_key', (string) $request['apiKey'] );
	}
	if ( 'reset' === $request['command'] ) {
		service_reference_drop_data();
	}
	if ( 'restore' === $request['command'] ) {
		service_reference_restore_defaults();
	}
	if ( 'throttle' === $request['command'] ) {
		update_option( 'service_reference_throttle_next', (int) $request['next'] );
		update_option( 'service_reference_retry_after', (int) $request['retryAfter'] );
	}
	if ( isset( $request['subscriptions'] ) ) {
		service_reference_place_subscriptions( $request['subscriptions'] );
	}
	echo wp_json_encode(
		array(
			'subscriptions' => array_map(
				function ( $row ) {
					return array( 'id' => (int) $row['id'], 'status' => $row['status'] );
				},
				service_reference_list_subscriptions()
			),
			'wordpressVersion' => get_bloginfo( 'version' ),
		)
	), "\n";
} catch ( Throwable $failure ) {
	fwrite( STDERR, $failure->getMessage() . "\n" );
	exit( 1 );
}
