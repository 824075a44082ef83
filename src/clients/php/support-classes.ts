/**
 * The PHP of the result object (the success body's members, generated, every other member kept)
 * and of the one reading of `Retry-After` every client of this project follows
 * (src/lib/http/retry-after.ts).
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { camelCaseName } from '../../lib/samples/client-libraries.ts';
import { docComment, docLines, phpDocType, phpNamespace, phpString } from './php-source.ts';

const fileHeader = ['<?php', '', 'declare(strict_types=1);', '', `namespace ${phpNamespace};`, ''].join('\n');

export function resultClass(contract: ExecutableContract): string {
  const fields = contract.model.resultFields;
  const properties = fields.flatMap((field) => [
    docComment([...docLines(field.description), '', `@var ${phpDocType(field)}|null`], '    '),
    `    public $${camelCaseName(field.name)};`,
    '',
  ]);
  const assignments = fields.map((field) => `        $this->${camelCaseName(field.name)} = $members[${phpString(field.name)}] ?? null;`);
  return `${fileHeader}
/**
 * A success: the members of the ${contract.model.responses.find((response) => /^2/.test(response.status))?.status ?? ''} answer as properties, and every member,
 * those a later release adds included, through get() and toArray().
 */
final class Result implements \\JsonSerializable
{
${properties.join('\n')}
    /** @var array<string, mixed> */
    private $members;

    /**
     * @param array<string, mixed> $members the body as decoded
     */
    public function __construct(array $members)
    {
        $this->members = $members;
${assignments.join('\n')}
    }

    /**
     * Any member of the answer by its name as sent, known to this release or not.
     *
     * @return mixed
     */
    public function get(string $member)
    {
        return $this->members[$member] ?? null;
    }

    public function has(string $member): bool
    {
        return array_key_exists($member, $this->members);
    }

    /** @return array<string, mixed> every member of the answer, as sent */
    public function toArray(): array
    {
        return $this->members;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return $this->members;
    }
}
`;
}

export function retryAfterClass(contract: ExecutableContract): string {
  const header = contract.retryAfterHeader;
  return `${fileHeader}
/**
 * ${header} (RFC 9110, section 10.2.3), read one way in every client of this API: the value
 * trimmed; only digits is that many seconds; an IMF-fixdate (a real day with its right weekday)
 * is the time until that moment, 0 once it has passed; anything else is unreadable (null), and the
 * client falls back to its own backoff.
 */
final class RetryAfter
{
    /** The header's name, as the contract writes it. */
    public const HEADER = ${phpString(header)};

    private const DATE_FORMAT = 'D, d M Y H:i:s \\\\G\\\\M\\\\T';

    /**
     * Seconds to wait, or null when the value is neither a number of seconds nor an IMF-fixdate.
     *
     * @param float|null $now the current time in seconds since 1970; the clock's when null
     */
    public static function seconds(string $value, ?float $now = null): ?float
    {
        $text = trim($value);
        if (preg_match('/^[0-9]+$/', $text) === 1) {
            return (float) $text;
        }
        $pattern = '/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/';
        if (preg_match($pattern, $text) !== 1) {
            return null;
        }
        $date = \\DateTimeImmutable::createFromFormat('!' . self::DATE_FORMAT, $text, new \\DateTimeZone('UTC'));
        // A day that does not exist, or the wrong weekday, comes back as another date: refused.
        if ($date === false || $date->format(self::DATE_FORMAT) !== $text) {
            return null;
        }
        $moment = (float) $date->getTimestamp();
        return max(0.0, $moment - ($now ?? microtime(true)));
    }
}
`;
}
