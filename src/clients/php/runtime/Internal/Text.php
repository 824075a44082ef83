<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Internal/Text.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Internal;

/**
 * Texts a message quotes (a host's page, a value the caller gave, the service's message), cut by
 * character and never inside one, without mbstring, so that json_encode() of every message works.
 *
 * @internal
 */
final class Text
{
    /**
     * At most $characters characters of $text, with an ellipsis when it was longer. Bytes that are
     * not UTF-8 are replaced by a question mark first.
     */
    public static function excerpt(string $text, int $characters): string
    {
        $valid = self::validUtf8($text);
        if (preg_match('/^.{0,' . $characters . '}/su', $valid, $match) !== 1) {
            return '';
        }
        return $match[0] === $valid ? $valid : $match[0] . '…';
    }

    /** The number of characters of a UTF-8 text. */
    public static function length(string $text): int
    {
        return (int) preg_match_all('/./su', self::validUtf8($text));
    }

    /** The text with every byte that is not part of a UTF-8 character replaced by a question mark. */
    public static function validUtf8(string $text): string
    {
        if (preg_match('//u', $text) === 1) {
            return $text;
        }
        $pattern = '/[\x00-\x7F]|[\xC2-\xDF][\x80-\xBF]|[\xE0-\xEF][\x80-\xBF]{2}|[\xF0-\xF4][\x80-\xBF]{3}|(.)/s';
        return (string) preg_replace_callback($pattern, static function (array $match): string {
            return isset($match[1]) ? '?' : $match[0];
        }, $text);
    }

    /**
     * A value as a message shows it: a short text quoted, a long one by its length only, so that
     * a note of many lines is never echoed whole.
     *
     * @param mixed $value
     */
    public static function described($value): string
    {
        if ($value === null) {
            return 'it is missing';
        }
        if (is_string($value)) {
            $length = self::length($value);
            return $length > 40
                ? sprintf('got a string of %d characters', $length)
                : 'got ' . (string) json_encode(
                    self::validUtf8($value),
                    JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE
                );
        }
        if (is_array($value)) {
            return sprintf('got a list of %d', count($value));
        }
        if (is_object($value)) {
            return 'got an object';
        }
        if (is_bool($value)) {
            return $value ? 'got true' : 'got false';
        }
        return 'got ' . var_export($value, true);
    }
}
