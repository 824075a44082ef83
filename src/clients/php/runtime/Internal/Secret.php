<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Internal/Secret.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Internal;

/**
 * A value that must never be shown: the API key, and a request body that carries it.
 *
 * The value lives in a closure, not in a property, so that what reads an object's properties
 * without asking it (var_export(), an (array) cast, a trace's arguments, get_object_vars() from
 * outside) finds a closure with nothing to show; var_dump(), print_r(), serialize() and
 * json_encode() are answered with a placeholder. Only reveal() gives the value back, and only the
 * code that writes a request body calls it.
 *
 * @internal
 */
final class Secret implements \JsonSerializable
{
    private const SHOWN = '(not shown)';

    /** @var \Closure(): mixed */
    private $value;

    /**
     * Takes the value out of the caller's variable, which is left null: a variable of a frame that
     * an exception's trace may capture then holds nothing to show. Passing by reference is what
     * makes this safe, since an optimiser cannot drop a write it cannot see the end of.
     *
     * @param mixed $value
     */
    public static function take(&$value): self
    {
        $secret = new self();
        $secret->hold($value);
        $value = null;
        return $secret;
    }

    /** @param mixed $value */
    public static function of($value): self
    {
        $secret = new self();
        $secret->hold($value);
        return $secret;
    }

    private function __construct()
    {
        $this->value = static function () {
            return null;
        };
    }

    /** @param mixed $value */
    private function hold($value): void
    {
        $this->value = static function () use ($value) {
            return $value;
        };
    }

    /** @return mixed the value itself: for the code that writes the request body only */
    public function reveal()
    {
        return ($this->value)();
    }

    /** @return array<string, string> */
    public function __debugInfo(): array
    {
        return ['value' => self::SHOWN];
    }

    /** @return array<string, string> */
    public function __serialize(): array
    {
        return ['value' => self::SHOWN];
    }

    /** @param array<string, mixed> $data */
    public function __unserialize(array $data): void
    {
        $this->value = static function () {
            return null;
        };
    }

    /**
     * What var_export() writes calls this when it is run: it gives a secret holding nothing.
     *
     * @param array<string, mixed> $properties
     */
    public static function __set_state(array $properties): self
    {
        return new self();
    }

    public function jsonSerialize(): string
    {
        return self::SHOWN;
    }

    public function __toString(): string
    {
        return self::SHOWN;
    }

    /** A secret is never copied: a clone would be one more place holding it. */
    private function __clone()
    {
    }
}
