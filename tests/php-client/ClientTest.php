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
use SubscriptionLifecycle\Client\ClientInterface;
use SubscriptionLifecycle\Client\Exception\ClientException;
use SubscriptionLifecycle\Client\Exception\ConnectionException;
use SubscriptionLifecycle\Client\Exception\HostException;
use SubscriptionLifecycle\Client\Exception\InvalidFieldException;
use SubscriptionLifecycle\Client\Exception\NoAnswerException;
use SubscriptionLifecycle\Client\Exception\ServiceException;
use SubscriptionLifecycle\Client\Exception\ThrottledException;
use SubscriptionLifecycle\Client\Exception\TimeoutException;
use SubscriptionLifecycle\Client\Pace;
use SubscriptionLifecycle\Client\Result;
use SubscriptionLifecycle\Client\RetryAfter;

final class ClientTest extends TestCase
{
    /** @var array<string, mixed> */
    private static $plan;

    /** @var string[] */
    private $logged = [];

    /** @var array<int, array<string, mixed>> the members each attempt was reported with */
    private $attempts = [];

    public static function setUpBeforeClass(): void
    {
        $file = getenv('PLAN_FILE');
        self::assertIsString($file, 'PLAN_FILE names the plan the node test wrote');
        self::$plan = json_decode((string) file_get_contents($file), true);
        // Opcache's optimiser is what drops a dead store of the key; the tests run with it, as production does.
        self::assertTrue(function_exists('opcache_get_status') && opcache_get_status() !== false, 'opcache is on');
    }

    /** @param array<string, mixed> $options */
    private function client(array $options = [], ?string $key = null): Client
    {
        return new Client(self::$plan['siteUrl'], $key ?? self::$plan['apiKey'], array_merge([
            'pace' => 0,
            'max_wait' => 5,
            'timeout' => 10,
            'logger' => $this->logger(),
        ], $options));
    }

    /** A logger as a shop writes one: a callable given the line and the attempt's members. */
    private function logger(): \Closure
    {
        $logged = &$this->logged;
        $attempts = &$this->attempts;
        return static function (string $line, array $context) use (&$logged, &$attempts): void {
            $logged[] = $line;
            $attempts[] = $context;
        };
    }

    /** @param array<string, mixed> $case */
    private function call(ClientInterface $client, array $case)
    {
        return $client->{$case['method']}($case['fields']);
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
            // A request object sat in the frames of the exchange that ended in this refusal.
            $this->assertKeyShowsNowhere(self::$plan['apiKey'], $error);
        }
    }

    public function testAFieldTheActionDoesNotTakeIsABadRequestWithItsParams(): void
    {
        $case = self::$plan['badRequest'];
        try {
            $this->client()->{$case['method']}($case['fields']);
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
            $this->assertKeyShowsNowhere($wrongKey, $error, $client);
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
            $this->assertKeyShowsNowhere($key, $error);
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
            $this->assertKeyShowsNowhere(self::$plan['apiKey'], $error, $client);
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

    public function testAMissingFieldOfListedValuesNamesTheValues(): void
    {
        $case = self::$plan['missingListed'];
        try {
            $this->client()->{$case['method']}($case['fields']);
            self::fail('the action was sent without its field');
        } catch (InvalidFieldException $error) {
            self::assertSame($case['field'], $error->getField());
            self::assertSame('required', $error->getBound());
            foreach ($case['values'] as $value) {
                self::assertStringContainsString(json_encode($value), $error->getMessage());
            }
        }
        self::assertSame([], $this->logged, 'nothing was sent');
    }

    public function testAnOverLongTextIsNotEchoedAndMessagesAreCutByCharacter(): void
    {
        $case = self::$plan['tooLong'];
        $note = str_repeat('é', $case['longest'] + 1);
        try {
            $this->client()->{$case['method']}(array_merge($case['fields'], [$case['field'] => $note]));
            self::fail('the over-long text was sent');
        } catch (InvalidFieldException $error) {
            self::assertSame($case['field'], $error->getField());
            self::assertStringNotContainsString(str_repeat('é', 41), $error->getMessage());
            self::assertStringContainsString((string) ($case['longest'] + 1), $error->getMessage());
        }
        $host = new HostException(403, 'text/html', '<p>' . str_repeat('é', 400) . "\xff</p>");
        self::assertNotFalse(json_encode($host->getMessage()), 'the host page is cut inside no character');
        self::assertLessThan(420, strlen($host->getExcerpt()) / 2);
        $service = $this->serviceException(str_repeat('ü', 1000));
        self::assertNotFalse(json_encode($service->getMessage()));
        self::assertLessThan(1000, strlen($service->getMessage()) / 2);
    }

    public function testTimeoutsAreSentAgainAsThePolicySaysThenNamed(): void
    {
        $client = new Client((string) getenv('HANGING_SITE'), self::$plan['apiKey'], [
            'pace' => 0,
            'timeout' => 1,
            'connect_timeout' => 1,
            'max_retries' => 1,
            'logger' => $this->logger(),
        ]);
        try {
            $this->call($client, self::$plan['repeat']);
            self::fail('the hanging site answered');
        } catch (TimeoutException $error) {
            self::assertInstanceOf(NoAnswerException::class, $error);
            self::assertSame(2, $error->getAttempts());
            $this->assertKeyShowsNowhere(self::$plan['apiKey'], $error, $client);
        }
        $this->assertAttemptsReported(2, 'timeout');
    }

    public function testARefusedConnectionIsSentAgainAsThePolicySaysThenNamed(): void
    {
        $client = new Client((string) getenv('REFUSING_SITE'), self::$plan['apiKey'], ['pace' => 0, 'logger' => $this->logger()]);
        try {
            $this->call($client, self::$plan['repeat']);
            self::fail('the closed port answered');
        } catch (ConnectionException $error) {
            self::assertSame(self::$plan['maxAttempts'], $error->getAttempts());
        }
        $this->assertAttemptsReported(self::$plan['maxAttempts'], 'connection');
    }

    public function testAnObjectWithALogMethodIsALoggerToo(): void
    {
        $logger = new class () {
            /** @var array<int, array{string, string, array<string, mixed>}> */
            public $records = [];

            /** @param array<string, mixed> $context */
            public function log(string $level, string $message, array $context = []): void
            {
                $this->records[] = [$level, $message, $context];
            }
        };
        $client = new Client(self::$plan['siteUrl'], self::$plan['apiKey'], ['pace' => 0, 'logger' => $logger]);
        $this->call($client, self::$plan['repeat']);
        self::assertCount(1, $logger->records);
        [$level, $message, $context] = $logger->records[0];
        self::assertSame('info', $level);
        self::assertStringContainsString(self::$plan['repeat']['identifier'], $message);
        self::assertSame(self::$plan['attemptMembers'], array_keys($context));
    }

    public function testClientImplementsTheInterfaceAShopsTestsCanFake(): void
    {
        $interface = new \ReflectionClass(ClientInterface::class);
        $methods = array_map(static function (\ReflectionMethod $method): string {
            return $method->getName();
        }, $interface->getMethods());
        sort($methods);
        $expected = array_merge(self::$plan['methods'], ['send']);
        sort($expected);
        self::assertSame($expected, $methods);
        self::assertTrue((new \ReflectionClass(Client::class))->implementsInterface(ClientInterface::class));
        // As the page shows a shop's test doing it: a mock of the interface, which sends nothing.
        $case = self::$plan['repeat'];
        $mock = $this->createMock(ClientInterface::class);
        $mock->expects($this->once())->method($case['method'])->with($case['fields'])->willReturn(new Result(['done' => true]));
        self::assertTrue($this->call($mock, $case)->get('done'));
    }

    public function testBadOptionsAreClearErrorsThatShowNoKey(): void
    {
        $key = self::$plan['wrongKey'];
        $cases = [
            [self::$plan['siteUrl'], $key, 'not an array'],
            [false, $key, []],
            [self::$plan['siteUrl'], $key, ['pace' => 'fast']],
            [self::$plan['siteUrl'], $key, ['max_retries' => -1]],
            [self::$plan['siteUrl'], $key, ['no_such_option' => 1]],
            // curl would refuse it while holding the body, and a trace of that would hold the key.
            [self::$plan['siteUrl'] . "/\0", $key, []],
        ];
        foreach ($cases as [$site, $given, $options]) {
            try {
                new Client($site, $given, $options);
                self::fail('a bad option was taken: ' . json_encode($options));
            } catch (\InvalidArgumentException $error) {
                $this->assertKeyShowsNowhere($key, $error);
            }
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
        self::assertCount(2, $this->attempts, 'the throttled request and its retry: ' . implode(' | ', $this->logged));
        self::assertNotNull($this->attempts[0]['retry_in_seconds']);
        self::assertNull($this->attempts[1]['retry_in_seconds']);
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
        $client = new Client((string) getenv('HANGING_SITE'), self::$plan['apiKey'], ['pace' => 0, 'timeout' => 1, 'connect_timeout' => 1, 'max_retries' => 0]);
        try {
            $this->call($client, self::$plan['repeat']);
            self::fail('the hanging site answered');
        } catch (TimeoutException $error) {
            self::assertSame(1, $error->getAttempts());
            $this->assertKeyShowsNowhere(self::$plan['apiKey'], $error, $client);
        }
    }

    public function testTheCourtesyPaceSpacesRequestsToOneSite(): void
    {
        $case = self::$plan['repeat'];
        $paced = $this->client(['pace' => 1.0]);
        $started = microtime(true);
        $this->call($paced, $case);
        $this->call($paced, $case);
        self::assertGreaterThanOrEqual(0.9, microtime(true) - $started);
        $unpaced = $this->client(['pace' => 0]);
        $started = microtime(true);
        $this->call($unpaced, $case);
        self::assertLessThan(0.9, microtime(true) - $started);
        // The pace is each client's own: a second client waits for nothing the first did.
        $second = $this->client(['pace' => 1.0]);
        $started = microtime(true);
        $this->call($second, $case);
        self::assertLessThan(0.9, microtime(true) - $started);
        // Shared through the option, one pace spaces the requests of both.
        $pace = new Pace(1.0);
        $started = microtime(true);
        $this->call($this->client(['pace' => $pace]), $case);
        $this->call($this->client(['pace' => $pace]), $case);
        self::assertGreaterThanOrEqual(0.9, microtime(true) - $started);
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

    /**
     * The key is in nothing a logger or an error tracker writes of an exception or the client:
     * its message, its trace as a string, as var_export() and json_encode() write it and with
     * every object in it cast to an array, print_r(), var_dump(), serialize(), the log lines; and
     * the message is valid UTF-8 for a JSON logger.
     */
    private function assertKeyShowsNowhere(string $key, \Throwable $error, ?Client $client = null): void
    {
        $trace = $error->getTrace();
        $casts = [];
        array_walk_recursive($trace, static function ($value) use (&$casts): void {
            if (is_object($value)) {
                $casts[] = var_export((array) $value, true);
                // PHPUnit's own frames hold objects that cannot be serialized; the library's can.
                if (strpos(get_class($value), 'SubscriptionLifecycle\\Client\\') === 0 && !$value instanceof \Throwable) {
                    $casts[] = serialize($value);
                }
            }
        });
        $shown = [
            $error->getMessage(),
            $error->getTraceAsString(),
            (string) $error,
            var_export($trace, true),
            (string) json_encode($trace, JSON_PARTIAL_OUTPUT_ON_ERROR),
            implode("\n", $casts),
            print_r($error, true),
            $this->dump($error),
            implode("\n", $this->logged),
            (string) json_encode($this->attempts),
        ];
        if ($client !== null) {
            $shown[] = print_r($client, true);
            $shown[] = $this->dump($client);
            $shown[] = var_export($client, true);
            $shown[] = serialize($client);
            $shown[] = (string) json_encode($client);
        }
        foreach ($shown as $index => $text) {
            self::assertStringNotContainsString($key, $text, "shown by way $index");
        }
        self::assertNotFalse(json_encode($error->getMessage()));
    }

    private function serviceException(string $message): ServiceException
    {
        return new ServiceException(400, 'some_code', $message, [], []);
    }

    private function assertAttemptsReported(int $count, string $outcome): void
    {
        self::assertCount($count, $this->attempts, implode(' | ', $this->logged));
        foreach ($this->attempts as $index => $attempt) {
            self::assertSame(self::$plan['attemptMembers'], array_keys($attempt));
            self::assertSame($index + 1, $attempt['attempt']);
            self::assertSame($outcome, $attempt['outcome']);
            self::assertNull($attempt['status']);
            if ($index + 1 < $count) {
                self::assertGreaterThan(0, $attempt['retry_in_seconds']);
            } else {
                self::assertNull($attempt['retry_in_seconds']);
            }
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
