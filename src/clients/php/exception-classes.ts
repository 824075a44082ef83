/**
 * The PHP exception classes the contract decides: one per error status it documents with a body,
 * its codes as constants and each member of its details as a getter, extending the runtime's
 * ServiceException. Every other exception (the base interface, a refused field, a host's answer,
 * a throttled request, no answer) is the runtime's own (src/clients/php/runtime/Exception/), named
 * by the shared table of error kinds (src/clients/shared/error-kinds.ts).
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import type { ResponseRow } from '../../lib/contract/model.ts';
import { reasonPhrase } from '../../lib/http/status-reasons.ts';
import { pascalCaseName } from '../../lib/samples/client-libraries.ts';
import { errorDetailMembers } from '../shared/contract-facts.ts';
import { fixedErrorClassName, statusErrorClassName, type FixedErrorKindId } from '../shared/error-kinds.ts';
import { constantName, docComment, docLines, generatedFileStart, phpDocType, phpNamespace, phpString } from './php-source.ts';

const exceptionNamespace = `${phpNamespace}\\Exception`;

/** The class of an error status, from the shared table: `409` → `ConflictException`, `429` → `ThrottledException`. */
export function exceptionClassName(status: string | number): string {
  return statusErrorClassName(status, 'php');
}

/** The runtime's class of a kind every call can end with: `timeout` → `TimeoutException`. */
export function fixedExceptionClassName(kind: FixedErrorKindId): string {
  return fixedErrorClassName(kind, 'php');
}

/** The getter of a detail member on its exception: `current_status` → `getCurrentStatus`, as the page's examples call it. */
export function detailGetterName(member: string): string {
  return `get${pascalCaseName(member)}`;
}

/** The error responses that carry the service's body: one class each. The throttled status is the runtime's ThrottledException. */
export function documentedErrors(contract: ExecutableContract): ResponseRow[] {
  return contract.model.responses.filter(
    (response) => response.isError && response.body !== undefined && response.errorCodes.length > 0 && response.status !== contract.throttled.status,
  );
}

/** The class of one documented error status, generated from its response. */
export function statusExceptionClass(response: ResponseRow, documentVersion: string): string {
  const className = exceptionClassName(response.status);
  const codeLines = response.errorCodes.flatMap((error) => [
    docComment(docLines(error.when), '    '),
    `    public const ${constantName(error.code)} = ${phpString(error.code)};`,
    '',
  ]);
  const getters = errorDetailMembers(response).flatMap((member) => {
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
  const summary = docLines(`${response.status} ${reasonPhrase(Number(response.status)) ?? ''}. ${response.description}`);
  return `${generatedFileStart(documentVersion, 'src/clients/php/exception-classes.ts', exceptionNamespace)}
${docComment(summary)}
final class ${className} extends ServiceException
{
${[...codeLines, ...getters].join('\n').replace(/\n$/, '')}
}
`;
}

