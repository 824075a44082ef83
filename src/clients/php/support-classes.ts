/**
 * The PHP of the result object: the success body's members as properties, generated, and every
 * other member kept.
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { camelCaseName } from '../../lib/samples/client-libraries.ts';
import { docComment, docLines, generatedFileStart, phpDocType, phpNamespace, phpString } from './php-source.ts';

export function resultClass(contract: ExecutableContract): string {
  const fields = contract.model.resultFields;
  const properties = fields.flatMap((field) => [
    docComment([...docLines(field.description), '', `@var ${phpDocType(field)}|null`], '    '),
    `    public $${camelCaseName(field.name)};`,
    '',
  ]);
  const assignments = fields.map((field) => `        $this->${camelCaseName(field.name)} = $members[${phpString(field.name)}] ?? null;`);
  return `${generatedFileStart(contract.model.documentVersion, 'src/clients/php/support-classes.ts', phpNamespace)}
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
