<?php
/**
 * The generated library's WordPress transport from inside WordPress: loads the running test
 * site's wp-load.php, as a plugin runs, and calls the shop through wp_remote_post. Prints one JSON
 * object: the answer of the plan's `viaWordPress` case, the refusal of its `conflict` case, and
 * what a plugin's filter that throws inside wp_remote_request() makes of a third call: whether
 * the key shows in what the client throws.
 *
 *   php wordpress-transport.php CONFIG-NAME HOST:PORT AUTOLOAD PLAN-FILE
 */

declare(strict_types=1);

use SubscriptionLifecycle\Client\Client;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Transport\WordPressTransport;

if (PHP_SAPI !== 'cli' || $argc !== 5) {
    fwrite(STDERR, "usage: php wordpress-transport.php CONFIG-NAME HOST:PORT AUTOLOAD PLAN-FILE\n");
    exit(2);
}

// Debian's wp-config.php picks /etc/wordpress/config-<name>.php from this, as Apache's SetEnv does.
$_SERVER['WORDPRESS_CONFIG'] = $argv[1];
$_SERVER['HTTP_HOST'] = $argv[2];
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$_SERVER['REQUEST_METHOD'] = 'GET';
require '/usr/share/wordpress/wp-load.php';
require $argv[3];

$plan = json_decode((string) file_get_contents($argv[4]), true);
$sent = [];
add_action('http_api_debug', static function ($response, $context, $class, $arguments, $url) use (&$sent): void {
    $sent[] = $url;
}, 10, 5);
$client = new Client($plan['siteUrl'], $plan['apiKey'], ['pace' => 0, 'transport' => new WordPressTransport()]);
$case = $plan['viaWordPress'];
$answer = $client->{$case["method"]}($case["fields"]);
$conflict = $plan['conflict'];
$refusal = null;
try {
    $client->{$conflict["method"]}($conflict["fields"]);
} catch (ServiceException $error) {
    $refusal = ['status' => $error->getHttpStatus(), 'code' => $error->getErrorCode(), 'data' => $error->getData()];
}
// A plugin's filter that throws while WordPress holds the request's arguments, the body with the key among them.
$failing = static function (): void {
    throw new RuntimeException('a plugin failed');
};
add_filter('pre_http_request', $failing);
$filterFailure = null;
try {
    $client->{$case["method"]}($case["fields"]);
} catch (Throwable $thrown) {
    $shown = $thrown->getMessage() . $thrown->getTraceAsString() . var_export($thrown->getTrace(), true)
        . print_r($thrown, true) . var_export((array) $thrown, true);
    $filterFailure = [
        'class' => get_class($thrown),
        'message' => $thrown->getMessage(),
        'keyShown' => strpos($shown, $plan['apiKey']) !== false || strpos($shown, substr($plan['apiKey'], 0, 15)) !== false,
    ];
}
remove_filter('pre_http_request', $failing);
echo json_encode(['answer' => $answer->toArray(), 'refusal' => $refusal, 'sentThroughWordPress' => $sent, 'filterFailure' => $filterFailure]);
