<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/HostException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

use SubscriptionLifecycle\Client\Internal\Text;

/**
 * An answer that is not the service's: a firewall's or a CDN's HTML page (a 403, a 503), a
 * proxy's error or redirect, or any body without the service's error code. Nothing reached the
 * subscriptions as far as the client can tell.
 */
final class HostException extends \RuntimeException implements ClientException
{
    /** The longest part of the page's text a message quotes, in characters. */
    private const QUOTED_CHARACTERS = 200;

    /** @var int */
    private $httpStatus;
    /** @var string */
    private $contentType;
    /** @var string */
    private $excerpt;
    /** @var string|null */
    private $location;

    public function __construct(int $httpStatus, string $contentType, string $body, ?string $location = null)
    {
        $text = trim((string) preg_replace('/\s+/u', ' ', strip_tags(Text::validUtf8($body))));
        $this->excerpt = Text::excerpt($text, self::QUOTED_CHARACTERS);
        $this->location = $location === null ? null : Text::excerpt($location, self::QUOTED_CHARACTERS);
        parent::__construct(
            sprintf(
                'HTTP %d from the host, not the service (%s)%s%s',
                $httpStatus,
                $contentType === '' ? 'no body type' : Text::excerpt($contentType, 100),
                $this->location === null ? '' : '; it points to ' . $this->location,
                $this->excerpt === '' ? '' : ': ' . $this->excerpt
            ),
            $httpStatus
        );
        $this->httpStatus = $httpStatus;
        $this->contentType = $contentType;
    }

    public function getHttpStatus(): int
    {
        return $this->httpStatus;
    }

    public function getContentType(): string
    {
        return $this->contentType;
    }

    /** Where a redirect points, or null for an answer that is not one. */
    public function getLocation(): ?string
    {
        return $this->location;
    }

    /** The start of the page's text, tags removed, cut by character. */
    public function getExcerpt(): string
    {
        return $this->excerpt;
    }
}
