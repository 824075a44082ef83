<?php

/**
 * Part of the subscription lifecycle client, copied into the package as it is from
 * src/clients/php/runtime/Exception/InvalidFieldException.php of the project that generates it; edit it there.
 */

declare(strict_types=1);

namespace SubscriptionLifecycle\Client\Exception;

use SubscriptionLifecycle\Client\Internal\Text;

/** A field refused before anything was sent: missing, of another type, or outside a bound the contract sets. */
final class InvalidFieldException extends \InvalidArgumentException implements ClientException
{
    /** @var string */
    private $action;
    /** @var string */
    private $field;
    /** @var string */
    private $bound;

    /**
     * @param string $bound what the field must be: "at least 1", "required"
     * @param string $got what it was, as a message shows it (Text::described())
     */
    public function __construct(string $action, string $field, string $bound, string $got, string $must = '')
    {
        parent::__construct(sprintf(
            '%s: `%s` must be %s; %s. Nothing was sent.',
            $action,
            $field,
            $must === '' ? $bound : $must,
            Text::validUtf8($got)
        ));
        $this->action = $action;
        $this->field = $field;
        $this->bound = $bound;
    }

    /** The action the field was given to. */
    public function getAction(): string
    {
        return $this->action;
    }

    /** The field's name as the contract writes it. */
    public function getField(): string
    {
        return $this->field;
    }

    /** The rule it broke, as the reference says it ("at least 1", "required"). */
    public function getBound(): string
    {
        return $this->bound;
    }
}
