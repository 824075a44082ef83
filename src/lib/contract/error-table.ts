import type { ErrorTableRow, ResponseRow } from './model.ts';
import { responseListPointer, responseWithStatus } from './response-lookups.ts';
import { unauthorizedStatus } from './response-names.ts';
import { contractError, exactlyOne } from './schemas.ts';

/** The first paragraph of a description, for a table that has room for a summary only. */
function firstParagraph(markdown: string): string {
  return markdown.trim().split(/\n\s*\n/)[0]?.trim() ?? '';
}

/** The error a request with a missing or wrong API key gets: the 401 response and its one code. */
export function rejectedKeyError(responses: ResponseRow[]): ErrorTableRow & { code: string } {
  const response = responseWithStatus(responses, unauthorizedStatus, 'to a missing or wrong API key');
  const { code, when } = exactlyOne(response.errorCodes, response.pointer, 'error code for a missing or wrong key', (error) => error.code);
  return { status: response.status, code, when };
}

/** The fields every error body requires, in the order the first body lists them. */
export function errorEnvelope(responses: ResponseRow[]): string[] {
  const required = responses.flatMap((response) =>
    response.isError && response.body !== undefined ? [response.body.schema.required ?? []] : [],
  );
  const [first = [], ...others] = required;
  return first.filter((name) => others.every((names) => names.includes(name)));
}

/** The error table: one row per error code, and one row for an error response without a body contract. */
export function errorTable(responses: ResponseRow[]): ErrorTableRow[] {
  return responses
    .filter((response) => response.isError)
    .flatMap((response): ErrorTableRow[] =>
      response.errorCodes.length > 0
        ? response.errorCodes.map(({ code, when }) => ({ status: response.status, code, when }))
        : [{ status: response.status, code: null, when: firstParagraph(response.description) }],
    );
}

/** A documented error code with its status, or a contract error saying it is missing. */
export function documentedError(responses: ResponseRow[], code: string, meaning: string): ErrorTableRow & { code: string } {
  const row = errorTable(responses).find((candidate) => candidate.code === code);
  if (row === undefined) throw contractError(responseListPointer(responses), `no error response documents the code \`${code}\`, ${meaning}`);
  return { ...row, code };
}
