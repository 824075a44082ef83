<?php
/**
 * PHPUnit tests of the generated PHP library, run by tests/integration/php-client.test.ts against
 * a real sandbox or the real WordPress. Every fact of the API (methods, subscriptions, statuses,
 * codes, exception classes) comes from the plan that test writes from the model (PLAN_FILE); this
 * file types none.
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SubscriptionLifecycle\Client\Client;
use SubscriptionLifecycle\Client\Exception\ClientException;
use SubscriptionLifecycle\Client\Exception\HostException;
use SubscriptionLifecycle\Client\Exception\InvalidFieldException;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Exception\TransportException;
use SubscriptionLifecycle\Client\RetryAfter;

final class ClientTest extends TestCase
{
    /** @var array<string, mixed> */
    private static $plan;

    /** @var string[] */
    private $logged = [];

    public static function setUpBeforeClass(): void
    {
        $file = getenv('PLAN_FILE');
        self::assertIsString($file, 'PLAN_FILE names the plan the node test wrote');
        self::$plan = json_decode((string) file_get_contents($file), true);
    }

    /** @param array<string, mixed> $options */
    private function client(array $options = [], ?string $key = null): Client
    {
        $logged = &$this->logged;
        return new Client(self::$plan['siteUrl'], $key ?? self::$plan['apiKey'], array_merge([
            'pace' => 0,
            'max_wait' => 5,
            'timeout' => 10,
            'logger' => static function (string $line) use (&$logged): void {
                $logged[] = $line;
            },
        ], $options));
    }

    /** @param array<string, mixed> $case */
    private function call(Client $client, array $case)
    {
        return $client->{$case['method']}(...$case['args']);
    }

    /** The class a status's exception has, from the plan. */
    private function exceptionClass(string $status): string
    {
        return 'SubscriptionLifecycle\\Client\\Exception\\' . self::$plan['exceptionClasses'][$status];
    }

    public function testEveryActionChangesItsSubscription(): void
    {
        $client = $this->client();
        $result = self::$plan['result'];
        foreach (self::$plan['actions'] as $case) {
            $answer = $this->call($client, $case);
            $members = $answer->toArray();
            self::assertSame($case['to'], $members[$result['status']], $case['method']);
            self::assertSame($case['from'], $members[$result['previousStatus']], $case['method']);
            self::assertTrue($members[$result['changed']], $case['method']);
            self::assertSame($case['identifier'], $answer->get($result['action']));
            // The properties mirror the members, and every member the answer carried is kept.
            foreach (self::$plan['resultProperties'] as $member => $property) {
                self::assertSame($members[$member] ?? null, $answer->{$property}, $property);
            }
            self::assertSame(json_decode(json_encode($answer), true), $members);
        }
    }

    public function testARepeatAnswersNothingChanged(): void
    {
        $case = self::$plan['repeat'];
        $client = $this->client();
        $first = $this->call($client, $case);
        $second = $this->call($client, $case);
        $result = self::$plan['result'];
        self::assertTrue($first->get($result['changed']));
        self::assertFalse($second->get($result['changed']));
        self::assertSame($first->get($result['status']), $second->get($result['status']));
    }

    public function testAConflictNamesTheAllowedActions(): void
    {
        $case = self::$plan['conflict'];
        try {
            $this->call($this->client(), $case);
            self::fail('the refused action succeeded');
        } catch (ServiceException $error) {
            self::assertInstanceOf($this->exceptionClass($case['status']), $error);
            self::assertSame($case['code'], $error->getErrorCode());
            self::assertSame($case['currentStatus'], $error->getCurrentStatus());
            self::assertSame($case['allowedActions'], $error->getAllowedActions());
        }
    }

    public function testAFieldTheActionDoesNotTakeIsABadRequestWithItsParams(): void
    {
        $case = self::$plan['badRequest'];
        try {
            $this->client()->send($case['identifier'], $case['fields']);
            self::fail('the unknown field was accepted');
        } catch (ServiceException $error) {
            self::assertInstanceOf($this->exceptionClass($case['status']), $error);
            self::assertSame($case['code'], $error->getErrorCode());
            self::assertArrayHasKey($case['field'], $error->getParams());
        }
    }

    public function testAWrongKeyIsUnauthorizedAndNeverShown(): void
    {
        $case = self::$plan['unauthorized'];
        $wrongKey = self::$plan['wrongKey'];
        $client = $this->client([], $wrongKey);
        try {
            $this->call($client, $case);
            self::fail('the wrong key was accepted');
        } catch (ServiceException $error) {
            self::assertInstanceOf($this->exceptionClass($case['status']), $error);
            self::assertSame($case['code'], $error->getErrorCode());
            $shown = implode("\n", [$error->getMessage(), $error->getTraceAsString(), print_r($error, true), print_r($client, true), $this->dump($client), $this->dump($error), implode("\n", $this->logged)]);
            self::assertStringNotContainsString($wrongKey, $shown);
        }
    }

    public function testAKeyGivenWithABadSiteUrlIsNotShown(): void
    {
        $key = self::$plan['wrongKey'];
        try {
            new Client('shop without a scheme', $key);
            self::fail('a site URL without a scheme was taken');
        } catch (\InvalidArgumentException $error) {
            self::assertStringContainsString('http', $error->getMessage());
            $shown = implode("\n", [$error->getMessage(), $error->getTraceAsString(), print_r($error, true), $this->dump($error)]);
            self::assertStringNotContainsString($key, $shown);
        }
    }

    public function testAnUnknownSubscriptionIsNotFound(): void
    {
        $case = self::$plan['notFound'];
        $client = $this->client();
        try {
            $this->call($client, $case);
            self::fail('an unknown subscription was found');
        } catch (ServiceException $error) {
            self::assertInstanceOf($this->exceptionClass($case['status']), $error);
            self::assertSame($case['code'], $error->getErrorCode());
            $key = self::$plan['apiKey'];
            $shown = implode("\n", [$error->getMessage(), $error->getTraceAsString(), print_r($error, true), print_r($client, true), $this->dump($client), $this->dump($error), implode("\n", $this->logged)]);
            self::assertStringNotContainsString($key, $shown);
        }
    }

    public function testARequiredFieldOutsideItsBoundIsRefusedBeforeSending(): void
    {
        $case = self::$plan['outOfBound'];
        try {
            $this->call($this->client(), $case);
            self::fail('the field outside its bound was sent');
        } catch (InvalidFieldException $error) {
            self::assertSame($case['field'], $error->getField());
            self::assertSame($case['bound'], $error->getBound());
            self::assertStringContainsString($case['field'], $error->getMessage());
            self::assertStringContainsString($case['bound'], $error->getMessage());
        }
        self::assertSame([], $this->logged, 'nothing was sent');
        try {
            $this->client()->send($case['identifier'], []);
            self::fail('a missing required field was sent');
        } catch (InvalidFieldException $error) {
            self::assertSame($case['field'], $error->getField());
            self::assertSame('required', $error->getBound());
        }
    }

    public function testAThrottledRequestIsSentAgainAfterItsRetryAfter(): void
    {
        $case = self::$plan['throttled'];
        $started = microtime(true);
        $answer = $this->call($this->client(), $case);
        $elapsed = microtime(true) - $started;
        self::assertSame($case['to'], $answer->get(self::$plan['result']['status']));
        self::assertGreaterThanOrEqual((float) getenv('EXPECTED_WAIT'), $elapsed, 'the client waited as Retry-After asked');
        $sent = array_filter($this->logged, static function (string $line): bool {
            return preg_match('/: [0-9]{3} in [0-9]+ ms$/', $line) === 1;
        });
        self::assertCount(2, $sent, 'the throttled request and its retry: ' . implode(' | ', $this->logged));
    }

    public function testAWaitLongerThanTheBoundIsNotWaited(): void
    {
        $case = self::$plan['throttled'];
        $started = microtime(true);
        try {
            $this->call($this->client(['max_wait' => 5]), $case);
            self::fail('the throttled request succeeded');
        } catch (ClientException $error) {
            self::assertInstanceOf($this->exceptionClass(self::$plan['throttledStatus']), $error);
            self::assertSame((float) getenv('EXPECTED_WAIT'), $error->getRetryAfter());
            self::assertStringNotContainsString(self::$plan['apiKey'], $error->getMessage() . print_r($error, true));
            self::assertSame(1, $error->getAttempts());
            self::assertLessThan(3.0, microtime(true) - $started);
        }
    }

    public function testAHostPageIsAHostException(): void
    {
        try {
            $this->call($this->client(), self::$plan['throttled']);
            self::fail('the host page was read as a success');
        } catch (HostException $error) {
            self::assertSame((int) getenv('EXPECTED_STATUS'), $error->getHttpStatus());
            self::assertStringContainsString('html', $error->getContentType());
        }
    }

    public function testASiteThatNeverAnswersTimesOut(): void
    {
        $client = new Client((string) getenv('HANGING_SITE'), self::$plan['apiKey'], ['pace' => 0, 'timeout' => 1, 'connect_timeout' => 1]);
        $started = microtime(true);
        try {
            $this->call($client, self::$plan['repeat']);
            self::fail('the hanging site answered');
        } catch (TransportException $error) {
            self::assertTrue($error->isTimeout());
            self::assertLessThan(3.0, microtime(true) - $started);
            self::assertStringNotContainsString(self::$plan['apiKey'], print_r($error, true));
        }
    }

    public function testTheCourtesyPaceSpacesRequestsToOneSite(): void
    {
        $case = self::$plan['repeat'];
        $paced = $this->client(['pace' => 1.0]);
        $this->call($paced, $case);
        $started = microtime(true);
        $this->call($paced, $case);
        self::assertGreaterThanOrEqual(0.9, microtime(true) - $started);
        $unpaced = $this->client(['pace' => 0]);
        $started = microtime(true);
        $this->call($unpaced, $case);
        self::assertLessThan(0.9, microtime(true) - $started);
    }

    public function testASiteWithoutPrettyPermalinksIsReachedByItsQuery(): void
    {
        $client = $this->client(['plain_permalinks' => true]);
        self::assertStringContainsString('?', $client->endpointUrl());
        $answer = $this->call($client, self::$plan['repeat']);
        self::assertSame(self::$plan['repeat']['to'], $answer->get(self::$plan['result']['status']));
    }

    public function testRetryAfterIsReadAsEveryClientReadsIt(): void
    {
        foreach (self::$plan['retryAfterCases'] as $case) {
            $seconds = RetryAfter::seconds($case['value'], $case['now']);
            self::assertSame($case['seconds'] === null ? null : (float) $case['seconds'], $seconds, json_encode($case['value']));
        }
    }

    /** @param mixed $value */
    private function dump($value): string
    {
        ob_start();
        var_dump($value);
        return (string) ob_get_clean();
    }
}
