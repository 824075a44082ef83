/**
 * The PHP exception classes: one per error status the contract documents with a body (its codes
 * as constants, each member of its details as a getter), one for a host's answer that is not the
 * service's, one for the throttled response the retry bound did not outlast, one for a request
 * that got no answer, and one for a field refused before sending.
 */
import { STATUS_CODES } from 'node:http';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import type { Field, ResponseRow } from '../../lib/contract/model.ts';
import { errorCodeField, errorDataField, errorMessageField, errorStatusMember } from '../../lib/contract/response-names.ts';
import { pascalCaseName } from '../../lib/samples/client-libraries.ts';
import { constantName, docComment, docLines, phpDocType, phpNamespace, phpString } from './php-source.ts';

const exceptionNamespace = `${phpNamespace}\\Exception`;

const fileHeader = ['<?php', '', 'declare(strict_types=1);', '', `namespace ${exceptionNamespace};`, ''].join('\n');

/** The class of an error status, from its reason phrase: `409` → `ConflictException`. */
export function exceptionClassName(status: string): string {
  const phrase = STATUS_CODES[Number(status)];
  if (phrase === undefined) throw new Error(`HTTP status ${status} has no reason phrase to name its exception after`);
  return `${pascalCaseName(phrase)}Exception`;
}

/** The getter of a detail member on its exception: `current_status` → `getCurrentStatus`, as the page's examples call it. */
export function detailGetterName(member: string): string {
  return `get${pascalCaseName(member)}`;
}

/** The error responses that carry the service's body: one class each. */
export function documentedErrors(contract: ExecutableContract): ResponseRow[] {
  return contract.model.responses.filter((response) => response.isError && response.body !== undefined && response.errorCodes.length > 0);
}

function detailMembers(response: ResponseRow): Field[] {
  const data = response.bodyFields.find((field) => field.name === errorDataField);
  return (data?.members ?? []).filter((member) => member.name !== errorStatusMember);
}

export function clientExceptionInterface(): string {
  return `${fileHeader}
/** Every exception this package throws implements it: catch it to catch them all. */
interface ClientException extends \\Throwable
{
}
`;
}

export function invalidFieldClass(): string {
  return `${fileHeader}
/** A field refused before anything was sent: missing, of another type, or outside a bound the contract sets. */
final class InvalidFieldException extends \\InvalidArgumentException implements ClientException
{
    /** @var string */
    private $field;
    /** @var string */
    private $bound;

    public function __construct(string $field, string $bound, string $message)
    {
        parent::__construct($message);
        $this->field = $field;
        $this->bound = $bound;
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
`;
}

export function serviceExceptionClass(): string {
  return `${fileHeader}
/**
 * An error answered by the service itself (a JSON body with a code): the base of the class of each
 * documented status, and the class of a status a later release documents.
 */
class ServiceException extends \\RuntimeException implements ClientException
{
    /** @var int */
    private $httpStatus;
    /** @var string */
    private $errorCode;
    /** @var array<string, mixed> */
    private $data;
    /** @var array<string, mixed> */
    private $body;

    /**
     * @param array<string, mixed> $body the whole error body as decoded
     */
    public function __construct(int $httpStatus, array $body)
    {
        $code = isset($body[${phpString(errorCodeField)}]) && is_string($body[${phpString(errorCodeField)}]) ? $body[${phpString(errorCodeField)}] : '';
        $message = isset($body[${phpString(errorMessageField)}]) && is_string($body[${phpString(errorMessageField)}]) ? $body[${phpString(errorMessageField)}] : '';
        parent::__construct(sprintf('%d %s: %s', $httpStatus, $code, $message), $httpStatus);
        $this->httpStatus = $httpStatus;
        $this->errorCode = $code;
        $data = $body[${phpString(errorDataField)}] ?? [];
        $this->data = is_array($data) ? $data : [];
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
`;
}

/** The class of one documented error status, generated from its response. */
export function statusExceptionClass(response: ResponseRow): string {
  const className = exceptionClassName(response.status);
  const codeLines = response.errorCodes.flatMap((error) => [
    docComment(docLines(error.when), '    '),
    `    public const ${constantName(error.code)} = ${phpString(error.code)};`,
    '',
  ]);
  const getters = detailMembers(response).flatMap((member) => {
    const getter = detailGetterName(member.name);
    const docType = `${phpDocType(member)}|null`;
    return [
      docComment([...docLines(member.description || `The \`${member.name}\` member of the details.`), '', `@return ${docType}`], '    '),
      `    public function ${getter}()`,
      '    {',
      `        $data = $this->getData();`,
      `        return $data[${phpString(member.name)}] ?? null;`,
      '    }',
      '',
    ];
  });
  const summary = docLines(`${response.status} ${STATUS_CODES[Number(response.status)] ?? ''}. ${response.description}`);
  return `${fileHeader}
${docComment(summary)}
final class ${className} extends ServiceException
{
${[...codeLines, ...getters].join('\n').replace(/\n$/, '')}
}
`;
}

export function hostExceptionClass(): string {
  return `${fileHeader}
/**
 * An answer that is not the service's: a firewall's or a CDN's HTML page (a 403, a 503), a
 * proxy's error, or any body without the service's error code. Nothing reached the subscriptions
 * as far as the client can tell.
 */
final class HostException extends \\RuntimeException implements ClientException
{
    /** @var int */
    private $httpStatus;
    /** @var string */
    private $contentType;
    /** @var string */
    private $excerpt;

    public function __construct(int $httpStatus, string $contentType, string $body)
    {
        $text = trim((string) preg_replace('/\\s+/', ' ', strip_tags($body)));
        $this->excerpt = strlen($text) > 200 ? substr($text, 0, 200) . '…' : $text;
        parent::__construct(
            sprintf('The site answered %d with %s, not the service\\'s JSON: %s', $httpStatus, $contentType === '' ? 'no content type' : $contentType, $this->excerpt),
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

    /** The start of the page's text, tags removed. */
    public function getExcerpt(): string
    {
        return $this->excerpt;
    }
}
`;
}

export function throttledExceptionClass(contract: ExecutableContract): string {
  const className = exceptionClassName(contract.throttled.status);
  const summary = docLines(
    `${contract.throttled.status}: the host throttled the request, and the retry bound did not outlast it: the retries ran out, or the wait ${contract.retryAfterHeader} asked for was longer than the longest the client waits. ${contract.throttled.description}`,
  );
  return `${fileHeader}
${docComment(summary)}
final class ${className} extends \\RuntimeException implements ClientException
{
    /** @var float|null */
    private $retryAfter;
    /** @var string|null */
    private $header;
    /** @var int */
    private $attempts;

    public function __construct(?float $retryAfter, ?string $header, int $attempts, string $message)
    {
        parent::__construct($message, ${Number(contract.throttled.status)});
        $this->retryAfter = $retryAfter;
        $this->header = $header;
        $this->attempts = $attempts;
    }

    /** Seconds the host asked to wait, from ${contract.retryAfterHeader}; null when it named no wait the client can read. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }

    /** The ${contract.retryAfterHeader} header as received, or null without one. */
    public function getRetryAfterHeader(): ?string
    {
        return $this->header;
    }

    /** How many requests were sent, the first included. */
    public function getAttempts(): int
    {
        return $this->attempts;
    }
}
`;
}

export function transportExceptionClass(): string {
  return `${fileHeader}
/** The request got no answer: no connection, or the timeout passed. Whether the action ran is unknown. */
final class TransportException extends \\RuntimeException implements ClientException
{
    /** @var bool */
    private $timedOut;

    public function __construct(string $message, bool $timedOut)
    {
        parent::__construct($message);
        $this->timedOut = $timedOut;
    }

    /** Whether a timeout ended the wait (the connect timeout or the total one). */
    public function isTimeout(): bool
    {
        return $this->timedOut;
    }
}
`;
}
