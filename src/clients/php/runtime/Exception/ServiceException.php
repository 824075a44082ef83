<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/ServiceException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

use SubscriptionLifecycle\Client\Internal\Text;

/**
 * An error answered by the service itself (a JSON body with a code): the base of the class of each
 * documented status, and the class of a status a later release documents.
 */
class ServiceException extends \RuntimeException implements ClientException
{
    /** The longest part of the service's message a message quotes, in characters. */
    private const QUOTED_CHARACTERS = 300;

    /** @var int */
    private $httpStatus;
    /** @var string */
    private $errorCode;
    /** @var array<string, mixed> */
    private $data;
    /** @var array<string, mixed> */
    private $body;

    /**
     * @param string $errorCode the machine-readable code of the body
     * @param string $serviceMessage the message of the body
     * @param array<string, mixed> $data the details of the body
     * @param array<string, mixed> $body the whole error body as decoded
     */
    final public function __construct(
        int $httpStatus,
        string $errorCode,
        string $serviceMessage,
        array $data,
        array $body
    ) {
        parent::__construct(
            sprintf('HTTP %d %s: %s', $httpStatus, $errorCode, Text::excerpt($serviceMessage, self::QUOTED_CHARACTERS)),
            $httpStatus
        );
        $this->httpStatus = $httpStatus;
        $this->errorCode = $errorCode;
        $this->data = $data;
        $this->body = $body;
    }

    public function getHttpStatus(): int
    {
        return $this->httpStatus;
    }

    /** The machine-readable code to branch on. */
    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** @return array<string, mixed> the error's details, every member kept */
    public function getData(): array
    {
        return $this->data;
    }

    /** @return array<string, mixed> the whole body, every member kept */
    public function getBody(): array
    {
        return $this->body;
    }
}
