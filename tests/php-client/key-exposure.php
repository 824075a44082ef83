<?php
/**
 * Makes the PHP library throw every kind of exception it can, and looks for the API key in every
 * way a program, a logger or an error tracker shows one: the message, getTrace() and
 * getTraceAsString(), var_dump, print_r, var_export, serialize, an (array) cast and json_encode,
 * of what it throws and of what it returns, and the logger's lines with each attempt's members.
 * Run on PHP 7.4 to 8.5 by tests/integration/php-client-runtimes.test.ts, which reads the JSON it
 * prints: for each provocation, every place the key (or the first 15 characters PHP keeps of an
 * argument) showed. The facts of the API come from the plan (PLAN_FILE), as in behaviour.php. Each
 * call is made inline, so that no frame of this program passes the client or the key as an
 * argument: what a trace holds is the library's own. ONLY names one provocation to run alone.
 */

declare(strict_types=1);

require getenv('AUTOLOAD');

use SubscriptionLifecycle\Client\Client;
use SubscriptionLifecycle\Client\Internal\Secret;
use SubscriptionLifecycle\Client\Transport\CurlTransport;
use SubscriptionLifecycle\Client\Transport\Request;

$plan = json_decode((string) file_get_contents((string) getenv('PLAN_FILE')), true);
$logged = [];
$logger = static function (string $line, array $context) use (&$logged): void {
    $logged[] = $line . ' ' . json_encode($context);
};
/** @param array<string, mixed> $options */
$client = static function (array $options = [], ?string $key = null, ?string $site = null) use ($plan, $logger): Client {
    return new Client($site ?? $plan['siteUrl'], $key ?? $plan['apiKey'], array_merge(['pace' => 0, 'max_wait' => 5, 'timeout' => 10, 'logger' => $logger], $options));
};

/**
 * Runs `$show` with PHP's warnings about the dump itself (var_export meeting a circular
 * reference) kept aside, so that showing a value the way a logger does is not counted against
 * the library.
 */
function quietly(callable $show): string
{
    set_error_handler(static function (): bool {
        return true;
    });
    try {
        return (string) $show();
    } catch (Throwable $refused) {
        return 'refused: ' . get_class($refused) . ': ' . $refused->getMessage();
    } finally {
        restore_error_handler();
    }
}

/**
 * Every way of showing `$value`, by name.
 *
 * @param mixed $value
 * @return array<string, string>
 */
function shownWays($value): array
{
    $ways = [
        'var_dump' => quietly(static function () use ($value): string {
            ob_start();
            var_dump($value);
            return (string) ob_get_clean();
        }),
        'print_r' => quietly(static function () use ($value): string {
            return print_r($value, true);
        }),
        'var_export' => quietly(static function () use ($value): string {
            return var_export($value, true);
        }),
        'serialize' => quietly(static function () use ($value): string {
            return serialize($value);
        }),
        'var_export of the (array) cast' => quietly(static function () use ($value): string {
            return var_export(is_object($value) ? (array) $value : $value, true);
        }),
        'json_encode' => quietly(static function () use ($value): string {
            return (string) json_encode($value, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE);
        }),
        'json_encode of the (array) cast' => quietly(static function () use ($value): string {
            return (string) json_encode(is_object($value) ? (array) $value : $value, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE);
        }),
    ];
    if ($value instanceof Throwable) {
        $ways['getMessage'] = $value->getMessage();
        $ways['getTraceAsString'] = $value->getTraceAsString();
        $ways['(string) cast'] = (string) $value;
        $ways['getTrace, var_export'] = quietly(static function () use ($value): string {
            return var_export($value->getTrace(), true);
        });
        $ways['getTrace, print_r'] = quietly(static function () use ($value): string {
            return print_r($value->getTrace(), true);
        });
        $ways['getTrace, serialize'] = quietly(static function () use ($value): string {
            return serialize($value->getTrace());
        });
    }
    return $ways;
}

/** The keys looked for: each whole, and its first 15 characters, as a trace's string keeps an argument. */
$secrets = [];
foreach ([$plan['apiKey'], $plan['wrongKey']] as $key) {
    $secrets[$key] = 'the key';
    $secrets[substr($key, 0, 15)] = "the key's first 15 characters";
}

/** @param mixed $value @return string[] */
$exposures = static function ($value) use ($secrets): array {
    $found = [];
    foreach (shownWays($value) as $way => $text) {
        foreach ($secrets as $secret => $what) {
            if (strpos($text, $secret) !== false) {
                $found[] = "$what in $way";
                break;
            }
        }
    }
    return $found;
};

/** What provoking each exception throws; a provocation that throws nothing is reported as such. */
$provocations = [
    // First, while the test's sandbox still throttles its next request with a wait over max_wait.
    'a wait over the bound' => static function () use ($client, $plan): void {
        $client()->{$plan['throttled']['method']}($plan['throttled']['fields']);
    },
    'a TypeError on the options' => static function () use ($plan): void {
        $options = json_decode('"not an array of options"');
        new Client($plan['siteUrl'], $plan['apiKey'], $options);
    },
    'an unknown option' => static function () use ($client): void {
        $client(['no_such_option' => true]);
    },
    'a site URL without a scheme' => static function () use ($client): void {
        $client([], null, 'shop without a scheme');
    },
    'a field outside its bound' => static function () use ($client, $plan): void {
        $client()->{$plan['outOfBound']['method']}($plan['outOfBound']['fields']);
    },
    'a refusal, after the request was sent' => static function () use ($client, $plan): void {
        $client()->{$plan['conflict']['method']}($plan['conflict']['fields']);
    },
    'a field no release has' => static function () use ($client, $plan): void {
        $client()->send($plan['badRequest']['identifier'], $plan['badRequest']['fields']);
    },
    'a wrong key' => static function () use ($client, $plan): void {
        $client([], $plan['wrongKey'])->{$plan['unauthorized']['method']}($plan['unauthorized']['fields']);
    },
    'an unknown subscription' => static function () use ($client, $plan): void {
        $client()->{$plan['notFound']['method']}($plan['notFound']['fields']);
    },
    "a host's page" => static function () use ($client, $plan): void {
        $client([], null, (string) getenv('PAGE_SITE'))->{$plan['repeat']['method']}($plan['repeat']['fields']);
    },
    'a timeout' => static function () use ($client, $plan): void {
        $client(['timeout' => 1, 'connect_timeout' => 1, 'max_retries' => 1], null, (string) getenv('HANGING_SITE'))->{$plan['repeat']['method']}($plan['repeat']['fields']);
    },
    'a refused connection' => static function () use ($client, $plan): void {
        $client(['max_retries' => 1], null, (string) getenv('REFUSING_SITE'))->{$plan['repeat']['method']}($plan['repeat']['fields']);
    },
    'a site URL with a NUL byte' => static function () use ($client, $plan): void {
        $client([], null, $plan['siteUrl'] . "/\0")->{$plan['repeat']['method']}($plan['repeat']['fields']);
    },
    // Straight to the transport, since the client refuses such a site URL first.
    'a URL with a NUL byte, given to the curl transport' => static function () use ($plan): void {
        $body = (string) json_encode(['key' => $plan['apiKey']]);
        $request = new Request('POST', $plan['siteUrl'] . "/\0", [], Secret::take($body), 1.0, 1.0);
        (new CurlTransport())->send($request);
    },
    'a field whose jsonSerialize() throws' => static function () use ($client, $plan): void {
        $failing = new class () implements JsonSerializable {
            /** @return mixed */
            #[ReturnTypeWillChange]
            public function jsonSerialize()
            {
                throw new RuntimeException('this field cannot be written as JSON');
            }
        };
        $client()->send($plan['badRequest']['identifier'], array_merge($plan['badRequest']['fields'], [$plan['badRequest']['field'] => $failing]));
    },
    'a missing field' => static function () use ($client, $plan): void {
        $client()->send($plan['outOfBound']['identifier'], []);
    },
    // Only with ONLY naming it, against a library made from a contract whose key has a longest length the wrong key passes.
    // The constructor is called inline, as in the TypeError's case: through $client, this program's own frame would hold the key.
    'a key longer than the contract allows' => static function () use ($plan): void {
        new Client($plan['siteUrl'], $plan['wrongKey'], ['pace' => 0]);
    },
];
$only = (string) getenv('ONLY');
$provocations = $only === ''
    ? array_diff_key($provocations, ['a key longer than the contract allows' => true])
    : [$only => $provocations[$only]];

$report = ['exposures' => [], 'thrown' => [], 'hostMessageAsJson' => null];
foreach ($provocations as $name => $provoke) {
    $logged = [];
    try {
        $provoke();
        $report['thrown'][$name] = null;
        $report['exposures'][$name] = ['nothing was thrown'];
        continue;
    } catch (Throwable $thrown) {
        $report['thrown'][$name] = get_class($thrown);
        $found = $exposures($thrown);
        foreach ($logged as $line) {
            foreach ($secrets as $secret => $what) {
                if (strpos($line, $secret) !== false) {
                    $found[] = "$what in a log line";
                    break;
                }
            }
        }
        $report['exposures'][$name] = $found;
        if ($name === "a host's page") {
            $encoded = json_encode($thrown->getMessage());
            $report['hostMessageAsJson'] = $encoded === false ? 'json_encode failed: ' . json_last_error_msg() : 'encoded';
        }
    }
}

if ($only !== '') {
    echo json_encode($report), "\n";
    exit(0);
}
$shop = $client();
$report['exposures']['what a call returns'] = $exposures($shop->{$plan['viaWordPress']['method']}($plan['viaWordPress']['fields']));
$report['exposures']['the client itself'] = $exposures($shop);

echo json_encode($report), "\n";
