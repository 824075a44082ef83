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
use SubscriptionLifecycle\Client\Exception\ClientException;
use SubscriptionLifecycle\Client\Exception\HostException;
use SubscriptionLifecycle\Client\Exception\InvalidFieldException;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Exception\TransportException;
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

/** @param array<string, mixed> $options */
$client = static function (array $options = [], ?string $key = null) use ($plan, &$logged): Client {
    return new Client($plan['siteUrl'], $key ?? $plan['apiKey'], array_merge([
        'pace' => 0,
        'max_wait' => 5,
        'timeout' => 10,
        'logger' => static function (string $line) use (&$logged): void {
            $logged[] = $line;
        },
    ], $options));
};
/** @param array<string, mixed> $case */
$call = static function (Client $client, array $case) {
    return $client->{$case['method']}(...$case['args']);
};
$exceptionClass = static function (string $status) use ($plan): string {
    return 'SubscriptionLifecycle\\Client\\Exception\\' . $plan['exceptionClasses'][$status];
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
        $error = expectThrown(ServiceException::class, static function () use ($client, $case): void {
            $client()->send($case['identifier'], $case['fields']);
        });
        $expected = $exceptionClass($case['status']);
        holds($error instanceof $expected, get_class($error));
        same($case['code'], $error->getErrorCode(), 'code');
        holds(array_key_exists($case['field'], $error->getParams()), 'the params name the field');
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
        same([], $logged, 'nothing was sent');
    },
    'throttled' => static function () use ($plan, $client, $call, $result, &$logged): void {
        $started = microtime(true);
        $answer = $call($client(), $plan['throttled']);
        $elapsed = microtime(true) - $started;
        same($plan['throttled']['to'], $answer->get($result['status']), 'the retry succeeded');
        holds($elapsed >= (float) getenv('EXPECTED_WAIT'), sprintf('waited %.3f s, at least %s s asked', $elapsed, getenv('EXPECTED_WAIT')));
        $sent = array_filter($logged, static function (string $line): bool {
            return preg_match('/: [0-9]{3} in [0-9]+ ms$/', $line) === 1;
        });
        same(2, count($sent), 'the throttled request and its retry: ' . implode(' | ', $logged));
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
        $shop = new Client((string) getenv('HANGING_SITE'), $plan['apiKey'], ['pace' => 0, 'timeout' => 1, 'connect_timeout' => 1]);
        $error = expectThrown(TransportException::class, static function () use ($shop, $call, $plan): void {
            $call($shop, $plan['repeat']);
        });
        holds($error->isTimeout(), 'a timeout: ' . $error->getMessage());
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
