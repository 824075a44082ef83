<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Internal/FieldCheck.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Internal;

use SubscriptionLifecycle\Client\Exception\InvalidFieldException;

/**
 * Checks the fields of one action against the contract before anything is sent, as the
 * TypeScript client does: each required field is there, each field has its type and keeps its
 * bounds. A field the contract does not name is left to the service, which answers for it.
 *
 * A rule, as the generated client describes it: ['types' => ['string', ...], 'required' => bool,
 * 'bounds' => [['keyword' => ..., 'label' => ..., 'limit' => ..., 'values' => [...]], ...],
 * 'items' => ['types' => [...], 'bounds' => [...]] for a list].
 *
 * @internal
 */
final class FieldCheck
{
    private const TYPE_WORDS = [
        'string' => 'a string',
        'integer' => 'an integer',
        'number' => 'a number',
        'boolean' => 'true or false',
        'null' => 'null',
        'array' => 'a list',
        'object' => 'an object',
    ];

    /**
     * @param array<string, array<string, mixed>> $rules the action's fields by name
     * @param array<string, mixed> $fields
     * @throws InvalidFieldException
     */
    public static function check(string $action, array $rules, array $fields): void
    {
        foreach ($rules as $name => $rule) {
            $name = (string) $name;
            $value = $fields[$name] ?? null;
            if ($value === null && !in_array('null', $rule['types'], true)) {
                if ($rule['required']) {
                    $bounds = array_map(static function (array $bound): string {
                        return (string) $bound['label'];
                    }, $rule['bounds']);
                    $must = 'given (it is required): '
                        . implode(', ', array_merge([self::typeBound($rule['types'])], $bounds));
                    throw new InvalidFieldException($action, $name, 'required', Text::described(null), $must);
                }
                continue;
            }
            self::checkValue($action, $name, $value, $rule);
            if (isset($rule['items']) && is_array($value)) {
                foreach (array_values($value) as $index => $item) {
                    self::checkValue($action, sprintf('%s[%d]', $name, $index), $item, $rule['items']);
                }
            }
        }
    }

    /**
     * @param mixed $value
     * @param array<string, mixed> $rule
     * @throws InvalidFieldException
     */
    public static function checkValue(string $action, string $name, $value, array $rule, bool $showValue = true): void
    {
        $got = $showValue ? Text::described($value) : 'got another value (not shown)';
        $typed = false;
        foreach ($rule['types'] as $type) {
            $typed = $typed || self::hasType($value, (string) $type);
        }
        if (!$typed) {
            throw new InvalidFieldException($action, $name, self::typeBound($rule['types']), $got);
        }
        foreach ($rule['bounds'] as $bound) {
            if (self::breaks($value, $bound)) {
                throw new InvalidFieldException($action, $name, (string) $bound['label'], $got);
            }
        }
    }

    /** @param mixed $value */
    private static function hasType($value, string $type): bool
    {
        switch ($type) {
            case 'string':
                return is_string($value);
            case 'integer':
                return is_int($value);
            case 'number':
                return is_int($value) || (is_float($value) && is_finite($value));
            case 'boolean':
                return is_bool($value);
            case 'null':
                return $value === null;
            case 'array':
                return is_array($value) && self::isList($value);
            case 'object':
                return (is_array($value) && ($value === [] || !self::isList($value))) || $value instanceof \stdClass;
            default:
                // A type this runtime does not know is the service's to judge.
                return true;
        }
    }

    /**
     * @param mixed $value
     * @param array<string, mixed> $bound
     */
    private static function breaks($value, array $bound): bool
    {
        $limit = $bound['limit'] ?? null;
        $number = is_int($value) || is_float($value);
        $length = is_string($value) ? Text::length($value) : null;
        $count = is_array($value) ? count($value) : null;
        switch ($bound['keyword']) {
            case 'enum':
            case 'const':
            case 'oneOf':
                return !in_array($value, $bound['values'] ?? [], true);
            case 'minLength':
                return $length !== null && $limit !== null && $length < $limit;
            case 'maxLength':
                return $length !== null && $limit !== null && $length > $limit;
            case 'minimum':
                return $number && $limit !== null && $value < $limit;
            case 'maximum':
                return $number && $limit !== null && $value > $limit;
            case 'exclusiveMinimum':
                return $number && $limit !== null && $value <= $limit;
            case 'exclusiveMaximum':
                return $number && $limit !== null && $value >= $limit;
            case 'minItems':
                return $count !== null && $limit !== null && $count < $limit;
            case 'maxItems':
                return $count !== null && $limit !== null && $count > $limit;
            case 'uniqueItems':
                return is_array($value) && count(array_unique(array_map('serialize', $value))) !== count($value);
            case 'pattern':
                return is_string($value) && self::misses($value, (string) ($bound['values'][0] ?? ''));
            default:
                return false;
        }
    }

    /** Whether a text misses a pattern of the contract; a pattern PCRE cannot read is the service's to judge. */
    private static function misses(string $value, string $pattern): bool
    {
        $matched = @preg_match('/' . str_replace('/', '\/', $pattern) . '/u', $value);
        return $matched === 0;
    }

    /** @param array<mixed> $value */
    private static function isList(array $value): bool
    {
        return $value === [] || array_keys($value) === range(0, count($value) - 1);
    }

    /** @param string[] $types */
    private static function typeBound(array $types): string
    {
        return implode(' or ', array_map(static function (string $type): string {
            return self::TYPE_WORDS[$type] ?? $type;
        }, $types));
    }
}
