<?php
/**
 * The PHP library's behaviour as one plain PHP program, for the PHPs PHPUnit does not run on
 * (tests/integration/php-client-runtimes.test.ts runs it on PHP 7.4 to 8.5 in php-wasm). The same
 * checks as ClientTest.php's, against the same plan (PLAN_FILE) written from the model, so this
 * file types no fact of the API either. CHECK names the check; it prints "passed CHECK" when it
 * holds and throws when it does not.
 */

declare(strict_types=1);

require getenv('AUTOLOAD');

use SubscriptionLifecycle\Client\Client;
use SubscriptionLifecycle\Client\ClientInterface;
use SubscriptionLifecycle\Client\Exception\ClientException;
use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\HostException;
use SubscriptionLifecycle\Client\Exception\InvalidFieldException;
use SubscriptionLifecycle\Client\Exception\NoAnswerException;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;
use SubscriptionLifecycle\Client\Pace;
use SubscriptionLifecycle\Client\RetryAfter;

/** @param mixed $expected @param mixed $actual */
function same($expected, $actual, string $what): void
{
    if ($expected !== $actual) {
        throw new LogicException(sprintf('%s: expected %s, got %s', $what, var_export($expected, true), var_export($actual, true)));
    }
}

function holds(bool $condition, string $what): void
{
    if (!$condition) {
        throw new LogicException($what);
    }
}

/** @param string $class @param callable $action */
function expectThrown(string $class, callable $action): Throwable
{
    try {
        $action();
    } catch (Throwable $thrown) {
        holds($thrown instanceof $class, sprintf('expected %s, got %s: %s', $class, get_class($thrown), $thrown->getMessage()));
        return $thrown;
    }
    throw new LogicException(sprintf('expected %s, nothing was thrown', $class));
}

$plan = json_decode((string) file_get_contents((string) getenv('PLAN_FILE')), true);
$logged = [];
/** @var array<int, array<string, mixed>> the members each attempt was reported with */
$attempts = [];

/** A logger as a shop writes one: a callable given the line and the attempt's members. */
$logger = static function (string $line, array $context) use (&$logged, &$attempts): void {
    $logged[] = $line;
    $attempts[] = $context;
};
/** @param array<string, mixed> $options */
$client = static function (array $options = [], ?string $key = null, ?string $site = null) use ($plan, $logger): Client {
    return new Client($site ?? $plan['siteUrl'], $key ?? $plan['apiKey'], array_merge([
        'pace' => 0,
        'max_wait' => 5,
        'timeout' => 10,
        'logger' => $logger,
    ], $options));
};
/** @param array<string, mixed> $case */
$call = static function (ClientInterface $client, array $case) {
    return $client->{$case['method']}($case['fields']);
};
$exceptionClass = static function (string $status) use ($plan): string {
    return 'SubscriptionLifecycle\\Client\\Exception\\' . $plan['exceptionClasses'][$status];
};
/** Each attempt was reported with the shared members, numbered, with the outcome, and a wait before each but the last. */
$attemptsReported = static function (int $count, string $outcome) use ($plan, &$attempts, &$logged): void {
    same($count, count($attempts), 'the attempts reported: ' . implode(' | ', $logged));
    foreach ($attempts as $index => $attempt) {
        same($plan['attemptMembers'], array_keys($attempt), 'the members of attempt ' . ($index + 1));
        same($index + 1, $attempt['attempt'], 'the attempt number');
        same($outcome, $attempt['outcome'], 'the outcome of attempt ' . ($index + 1));
        same(null, $attempt['status'], 'no status without an answer');
        if ($index + 1 < $count) {
            holds($attempt['retry_in_seconds'] > 0, 'a wait before attempt ' . ($index + 2));
        } else {
            same(null, $attempt['retry_in_seconds'], 'no wait after the last attempt');
        }
    }
};
$result = $plan['result'];

$checks = [
    'every action' => static function () use ($plan, $client, $call, $result): void {
        $shop = $client();
        foreach ($plan['actions'] as $case) {
            $answer = $call($shop, $case);
            $members = $answer->toArray();
            same($case['to'], $members[$result['status']], $case['method'] . ' status');
            same($case['from'], $members[$result['previousStatus']], $case['method'] . ' previous status');
            same(true, $members[$result['changed']], $case['method'] . ' changed');
            same($case['identifier'], $answer->get($result['action']), $case['method'] . ' action');
            foreach ($plan['resultProperties'] as $member => $property) {
                same($members[$member] ?? null, $answer->{$property}, $property);
            }
            same($members, json_decode((string) json_encode($answer), true), 'the answer as JSON');
        }
    },
    'repeat' => static function () use ($plan, $client, $call, $result): void {
        $shop = $client();
        $first = $call($shop, $plan['repeat']);
        $second = $call($shop, $plan['repeat']);
        same(true, $first->get($result['changed']), 'the first call changed');
        same(false, $second->get($result['changed']), 'the repeat changed nothing');
        same($first->get($result['status']), $second->get($result['status']), 'the status is kept');
    },
    'conflict' => static function () use ($plan, $client, $call, $exceptionClass): void {
        $case = $plan['conflict'];
        $error = expectThrown(ServiceException::class, static function () use ($client, $call, $case): void {
            $call($client(), $case);
        });
        $expected = $exceptionClass($case['status']);
        holds($error instanceof $expected, get_class($error));
        same($case['code'], $error->getErrorCode(), 'code');
        same($case['currentStatus'], $error->getCurrentStatus(), 'current status');
        same($case['allowedActions'], $error->getAllowedActions(), 'allowed actions');
    },
    'bad request' => static function () use ($plan, $client, $exceptionClass): void {
        $case = $plan['badRequest'];
        foreach (['the method', 'send()'] as $way) {
            $error = expectThrown(ServiceException::class, static function () use ($client, $case, $way): void {
                $shop = $client();
                if ($way === 'send()') {
                    $shop->send($case['identifier'], $case['fields']);
                } else {
                    $shop->{$case['method']}($case['fields']);
                }
            });
            $expected = $exceptionClass($case['status']);
            holds($error instanceof $expected, $way . ': ' . get_class($error));
            same($case['code'], $error->getErrorCode(), $way . ': code');
            holds(array_key_exists($case['field'], $error->getParams()), $way . ': the params name the field');
        }
    },
    'unauthorized' => static function () use ($plan, $client, $call, $exceptionClass): void {
        $case = $plan['unauthorized'];
        $error = expectThrown(ServiceException::class, static function () use ($client, $call, $case, $plan): void {
            $call($client([], $plan['wrongKey']), $case);
        });
        $expected = $exceptionClass($case['status']);
        holds($error instanceof $expected, get_class($error));
        same($case['code'], $error->getErrorCode(), 'code');
    },
    'not found' => static function () use ($plan, $client, $call, $exceptionClass): void {
        $case = $plan['notFound'];
        $error = expectThrown(ServiceException::class, static function () use ($client, $call, $case): void {
            $call($client(), $case);
        });
        $expected = $exceptionClass($case['status']);
        holds($error instanceof $expected, get_class($error));
        same($case['code'], $error->getErrorCode(), 'code');
    },
    'out of bound' => static function () use ($plan, $client, $call, &$logged): void {
        $case = $plan['outOfBound'];
        $error = expectThrown(InvalidFieldException::class, static function () use ($client, $call, $case): void {
            $call($client(), $case);
        });
        same($case['field'], $error->getField(), 'field');
        same($case['bound'], $error->getBound(), 'bound');
        holds(strpos($error->getMessage(), $case['field']) !== false, 'the message names the field');
        holds(strpos($error->getMessage(), $case['bound']) !== false, 'the message names the bound');
        $missing = expectThrown(InvalidFieldException::class, static function () use ($client, $case): void {
            $client()->send($case['identifier'], []);
        });
        same($case['field'], $missing->getField(), 'the missing field');
        same('required', $missing->getBound(), 'the missing field\'s bound');
        same([], $logged, 'nothing was sent');
    },
    'missing listed' => static function () use ($plan, $client, &$logged): void {
        $case = $plan['missingListed'];
        $error = expectThrown(InvalidFieldException::class, static function () use ($client, $case): void {
            $client()->{$case['method']}($case['fields']);
        });
        same($case['field'], $error->getField(), 'field');
        same('required', $error->getBound(), 'bound');
        foreach ($case['values'] as $value) {
            holds(strpos($error->getMessage(), (string) json_encode($value)) !== false, 'the message names ' . json_encode($value));
        }
        same([], $logged, 'nothing was sent');
    },
    'cut by character' => static function () use ($plan, $client): void {
        $case = $plan['tooLong'];
        $note = str_repeat('é', $case['longest'] + 1);
        $error = expectThrown(InvalidFieldException::class, static function () use ($client, $case, $note): void {
            $client()->{$case['method']}(array_merge($case['fields'], [$case['field'] => $note]));
        });
        same($case['field'], $error->getField(), 'field');
        holds(strpos($error->getMessage(), str_repeat('é', 41)) === false, 'the over-long text is not echoed');
        holds(strpos($error->getMessage(), (string) ($case['longest'] + 1)) !== false, 'the message gives its length');
        $host = new HostException(403, 'text/html', '<p>' . str_repeat('é', 400) . "\xff</p>");
        holds(json_encode($host->getMessage()) !== false, 'the host page is cut inside no character');
        holds(strlen($host->getExcerpt()) / 2 < 420, 'the host page is cut');
        $service = new ServiceException(400, 'some_code', str_repeat('ü', 1000), [], []);
        holds(json_encode($service->getMessage()) !== false, 'the service\'s message is cut inside no character');
        holds(strlen($service->getMessage()) / 2 < 1000, 'the service\'s message is cut');
    },
    'throttled' => static function () use ($plan, $client, $call, $result, &$logged, &$attempts): void {
        $started = microtime(true);
        $answer = $call($client(), $plan['throttled']);
        $elapsed = microtime(true) - $started;
        same($plan['throttled']['to'], $answer->get($result['status']), 'the retry succeeded');
        holds($elapsed >= (float) getenv('EXPECTED_WAIT'), sprintf('waited %.3f s, at least %s s asked', $elapsed, getenv('EXPECTED_WAIT')));
        same(2, count($attempts), 'the throttled request and its retry: ' . implode(' | ', $logged));
        holds($attempts[0]['retry_in_seconds'] !== null, 'the throttled attempt reports its wait');
        same(null, $attempts[1]['retry_in_seconds'], 'the retry reports no wait');
    },
    'wait over the bound' => static function () use ($plan, $client, $call, $exceptionClass): void {
        $error = expectThrown(ClientException::class, static function () use ($client, $call, $plan): void {
            $call($client(['max_wait' => 5]), $plan['throttled']);
        });
        $expected = $exceptionClass((string) $plan['throttledStatus']);
        holds($error instanceof $expected, get_class($error));
        same((float) getenv('EXPECTED_WAIT'), $error->getRetryAfter(), 'the wait asked for');
        same(1, $error->getAttempts(), 'attempts');
    },
    'host page' => static function () use ($plan, $client, $call): void {
        $error = expectThrown(HostException::class, static function () use ($client, $call, $plan): void {
            $call($client(), $plan['throttled']);
        });
        same((int) getenv('EXPECTED_STATUS'), $error->getHttpStatus(), 'status');
        holds(strpos($error->getContentType(), 'html') !== false, 'an HTML page: ' . $error->getContentType());
    },
    'timeout' => static function () use ($plan, $call): void {
        $shop = new Client((string) getenv('HANGING_SITE'), $plan['apiKey'], ['pace' => 0, 'timeout' => 1, 'connect_timeout' => 1, 'max_retries' => 0]);
        $error = expectThrown(TimeoutException::class, static function () use ($shop, $call, $plan): void {
            $call($shop, $plan['repeat']);
        });
        same(1, $error->getAttempts(), 'attempts');
    },
    'timeout retried' => static function () use ($plan, $client, $call, $attemptsReported): void {
        $shop = $client(['timeout' => 1, 'connect_timeout' => 1, 'max_retries' => 1], null, (string) getenv('HANGING_SITE'));
        $error = expectThrown(TimeoutException::class, static function () use ($shop, $call, $plan): void {
            $call($shop, $plan['repeat']);
        });
        holds($error instanceof NoAnswerException, 'a timeout is a no-answer exception');
        same(2, $error->getAttempts(), 'attempts');
        $attemptsReported(2, 'timeout');
    },
    'connection refused' => static function () use ($plan, $client, $call, $attemptsReported): void {
        $shop = $client([], null, (string) getenv('REFUSING_SITE'));
        $error = expectThrown(ConnectionException::class, static function () use ($shop, $call, $plan): void {
            $call($shop, $plan['repeat']);
        });
        same($plan['maxAttempts'], $error->getAttempts(), 'attempts');
        $attemptsReported($plan['maxAttempts'], 'connection');
    },
    'logger object' => static function () use ($plan, $call): void {
        $logger = new class () {
            /** @var array<int, array{string, string, array<string, mixed>}> */
            public $records = [];

            /** @param array<string, mixed> $context */
            public function log(string $level, string $message, array $context = []): void
            {
                $this->records[] = [$level, $message, $context];
            }
        };
        $call(new Client($plan['siteUrl'], $plan['apiKey'], ['pace' => 0, 'logger' => $logger]), $plan['repeat']);
        same(1, count($logger->records), 'one attempt logged');
        [$level, $message, $context] = $logger->records[0];
        same('info', $level, 'level');
        holds(strpos($message, $plan['repeat']['identifier']) !== false, 'the line names the action: ' . $message);
        same($plan['attemptMembers'], array_keys($context), 'the members');
    },
    'interface' => static function () use ($plan): void {
        $methods = array_map(static function (ReflectionMethod $method): string {
            return $method->getName();
        }, (new ReflectionClass(ClientInterface::class))->getMethods());
        sort($methods);
        $expected = array_merge($plan['methods'], ['send']);
        sort($expected);
        same($expected, $methods, 'the interface\'s methods');
        holds((new ReflectionClass(Client::class))->implementsInterface(ClientInterface::class), 'Client implements ClientInterface');
    },
    'bad options' => static function () use ($plan): void {
        $key = $plan['wrongKey'];
        $cases = [
            [$plan['siteUrl'], $key, 'not an array'],
            [false, $key, []],
            [$plan['siteUrl'], $key, ['pace' => 'fast']],
            [$plan['siteUrl'], $key, ['max_retries' => -1]],
            [$plan['siteUrl'], $key, ['no_such_option' => 1]],
            ['shop without a scheme', $key, []],
            [$plan['siteUrl'] . "/\0", $key, []],
        ];
        foreach ($cases as [$site, $given, $options]) {
            $error = expectThrown(InvalidArgumentException::class, static function () use ($site, $given, $options): void {
                new Client($site, $given, $options);
            });
            holds(strpos($error->getMessage(), $key) === false, 'the message shows no key: ' . $error->getMessage());
        }
    },
    'pace' => static function () use ($plan, $client, $call): void {
        $case = $plan['repeat'];
        $paced = $client(['pace' => 1.0]);
        // Timed from before the first request: the pace spaces the starts of requests, so a slow first answer shortens the wait.
        $started = microtime(true);
        $call($paced, $case);
        $call($paced, $case);
        holds(microtime(true) - $started >= 0.9, 'the second request waited for the pace');
        // The pace is each client's own unless shared through the option: then one pace spaces the requests of both.
        $pace = new Pace(1.0);
        $started = microtime(true);
        $call($client(['pace' => $pace]), $case);
        $call($client(['pace' => $pace]), $case);
        holds(microtime(true) - $started >= 0.9, 'a shared pace spaced two clients\' requests');
    },
    'plain permalinks' => static function () use ($plan, $client, $call, $result): void {
        $shop = $client(['plain_permalinks' => true]);
        holds(strpos($shop->endpointUrl(), '?') !== false, 'the endpoint is reached by its query: ' . $shop->endpointUrl());
        same($plan['repeat']['to'], $call($shop, $plan['repeat'])->get($result['status']), 'the answer');
    },
    'retry-after' => static function () use ($plan): void {
        foreach ($plan['retryAfterCases'] as $case) {
            same($case['seconds'] === null ? null : (float) $case['seconds'], RetryAfter::seconds($case['value'], $case['now']), (string) json_encode($case['value']));
        }
    },
];

$check = (string) getenv('CHECK');
holds(isset($checks[$check]), sprintf('no check named "%s"; the checks are %s', $check, implode(', ', array_keys($checks))));
$checks[$check]();
echo 'passed ', $check, "\n";
