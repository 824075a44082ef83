import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import type { Endpoint, ErrorCode, ErrorTableRow, NamedExample, ResponseHeader, ResponseRow } from './model.ts';
import { jsonMediaType } from './request-body.ts';
import type { ResolvedSchema } from './schemas.ts';
import { alternatives, childPointer, contractError, exactlyOne, resolveObject, resolveSchema } from './schemas.ts';
import { fieldsOf, typeLabel } from './fields.ts';
import { attempt, throwAtFirst, type ReportProblem } from './problems.ts';
export type { ErrorCode, ResponseHeader, NamedExample, ResponseRow, ErrorTableRow } from './model.ts';

/** RFC 9110, section 15.5.10: 409 Conflict is the answer to a request the resource's current state refuses. */
export const conflictStatus = '409';

/** RFC 9110, section 15.5.1: 400 Bad Request is the answer to a request the server cannot use as sent. */
export const badRequestStatus = '400';

/** RFC 9110, section 15.5.5: 404 Not Found is the answer when nothing matches the request. */
export const notFoundStatus = '404';

/** RFC 9110, section 15.6.1: 500 Internal Server Error is the answer when the server itself failed. */
export const internalErrorStatus = '500';

/** RFC 9110, section 15.5.2: 401 Unauthorized is the answer to a request without valid credentials. */
export const unauthorizedStatus = '401';

/** The property of every error body that holds the machine-readable code clients branch on. */
export const errorCodeField = 'code';

/** The property of every error body that explains the error to people (WordPress REST's envelope). */
export const errorMessageField = 'message';

/** WordPress's error envelope: the member that carries the details, and the status repeated in it. */
export const errorDataField = 'data';
export const errorStatusMember = 'status';

/** RFC 9110, section 10.2.3: the header that says how long to wait before trying again. */
export const retryAfterHeader = 'Retry-After';

/** WordPress REST's own code for a request it has no route for: another method, or another path. */
export const noRouteErrorCode = 'rest_no_route';

/** The error example that shows a request with a field the shop's release does not know. */
export const unknownFieldExampleName = 'unknown_field';

/** The first paragraph of a description, for a table that has room for a summary only. */
function firstParagraph(markdown: string): string {
  return markdown.trim().split(/\n\s*\n/)[0]?.trim() ?? '';
}

function isErrorStatus(status: string): boolean {
  return /^[45]/.test(status);
}

/**
 * The codes an error body can carry: the `code` property is either one `const` or a `oneOf` of
 * `const`s, and each `const` has a description that says when the service answers with it.
 */
function errorCodesOf(document: OpenApiDocument, body: ResolvedSchema, status: string, report: ReportProblem): ErrorCode[] {
  const property = body.schema.properties?.[errorCodeField];
  if (property === undefined) {
    throw contractError(body.pointer, `the ${status} body has no \`${errorCodeField}\` property for clients to branch on`);
  }
  const code = resolveSchema(document, property, childPointer(body.pointer, 'properties', errorCodeField));
  const variants = alternatives(document, code);
  const constants = variants.length > 0 ? variants : [code];
  return constants.flatMap(({ schema, pointer }): ErrorCode[] => {
    if (typeof schema.const !== 'string') {
      report({ location: pointer, message: 'each error code is expected to be a string `const`' });
      return [];
    }
    if (typeof schema.description !== 'string' || schema.description.trim() === '') {
      report({ location: pointer, message: `the code \`${schema.const}\` needs a description: it says when the error happens` });
      return [];
    }
    return [{ code: schema.const, when: schema.description }];
  });
}

/**
 * An error body's details repeat the HTTP status, and the document pins that member to the one
 * status of the response (`const: 409`), so a deployment answering `data.status: 400` in a 409 is
 * off the contract. A body whose details do not say so is refused here, naming the place.
 */
function assertStatusPinned(document: OpenApiDocument, body: ResolvedSchema, status: string): void {
  const dataPointer = childPointer(body.pointer, 'properties', errorDataField);
  const data = body.schema.properties?.[errorDataField];
  if (data === undefined) throw contractError(body.pointer, `the ${status} body has no \`${errorDataField}\` member`);
  const details = resolveSchema(document, data, dataPointer);
  const member = details.schema.properties?.[errorStatusMember];
  const memberPointer = childPointer(details.pointer, 'properties', errorStatusMember);
  if (member === undefined || !details.schema.required?.includes(errorStatusMember)) {
    throw contractError(details.pointer, `\`${errorStatusMember}\` is expected to be a required member: WordPress repeats the HTTP status there`);
  }
  const pinned: unknown = resolveSchema(document, member, memberPointer).schema.const;
  if (pinned !== Number(status)) {
    throw contractError(memberPointer, `is expected to be \`const: ${status}\`, the status of the response that carries it`);
  }
}

function examplesOf(document: OpenApiDocument, examples: unknown, pointer: string): NamedExample[] {
  if (!isRecord(examples)) return [];
  return Object.entries(examples).map(([name, value]) => {
    const example = resolveObject(document, value, childPointer(pointer, name));
    if (!('value' in example.value)) throw contractError(example.pointer, 'the example has no `value`');
    const summary = example.value.summary;
    return { name, summary: typeof summary === 'string' ? summary : '', value: example.value.value };
  });
}

/**
 * Every response the endpoint documents, in the order of the contract. Each problem is reported
 * and the reading goes on: a response that cannot be read is left out, and so is the part of a
 * response (its fields, codes, headers, examples) that cannot.
 */
export function listResponses(document: OpenApiDocument, endpoint: Endpoint, report: ReportProblem = throwAtFirst): ResponseRow[] {
  const responses = endpoint.operation.responses;
  const responsesPointer = childPointer(endpoint.pointer, 'responses');
  if (!isRecord(responses) || Object.keys(responses).length === 0) {
    throw contractError(responsesPointer, 'the endpoint documents no responses');
  }
  return Object.entries(responses).flatMap(([status, value]): ResponseRow[] => {
    const response = attempt(report, () => resolveObject(document, value, childPointer(responsesPointer, status)));
    if (response === undefined) return [];
    const { description, content, headers } = response.value;
    if (typeof description !== 'string') report({ location: response.pointer, message: 'the response has no description' });
    const media = isRecord(content) ? content[jsonMediaType] : undefined;
    const mediaPointer = childPointer(response.pointer, 'content', jsonMediaType);
    const body = isRecord(media) ? attempt(report, () => resolveSchema(document, media.schema, childPointer(mediaPointer, 'schema'))) : undefined;
    if (body !== undefined && isErrorStatus(status)) attempt(report, () => assertStatusPinned(document, body, status));
    const row: ResponseRow = {
      status,
      description: typeof description === 'string' ? description : '',
      isError: isErrorStatus(status),
      ...(body === undefined ? {} : { body }),
      bodyFields: body === undefined ? [] : (attempt(report, () => fieldsOf(document, body)) ?? []),
      errorCodes: body !== undefined && isErrorStatus(status) ? (attempt(report, () => errorCodesOf(document, body, status, report)) ?? []) : [],
      headers: isRecord(headers) ? (attempt(report, () => headersOf(document, headers, childPointer(response.pointer, 'headers'))) ?? []) : [],
      examples: isRecord(media) ? (attempt(report, () => examplesOf(document, media.examples, childPointer(mediaPointer, 'examples'))) ?? []) : [],
      pointer: response.pointer,
      listedAt: childPointer(responsesPointer, status),
    };
    return [row];
  });
}

function headersOf(document: OpenApiDocument, headers: Record<string, unknown>, pointer: string): ResponseHeader[] {
  return Object.entries(headers).map(([name, value]) => {
    const header = resolveObject(document, value, childPointer(pointer, name));
    const description = header.value.description;
    return {
      name,
      required: header.value.required === true,
      type: typeLabel(document, resolveSchema(document, header.value.schema, childPointer(header.pointer, 'schema'))),
      description: typeof description === 'string' ? description : '',
      examples: examplesOf(document, header.value.examples, childPointer(header.pointer, 'examples')),
    };
  });
}

/**
 * Where a problem of the list of responses as a whole is written: at the second of several
 * where one is expected, else at the operation's list of responses, so the message names the
 * file that lists them rather than the root that only refers to it.
 */
function listPointer(responses: ResponseRow[], found: ResponseRow[] = []): string {
  const extra = found[1]?.listedAt;
  if (extra !== undefined) return extra;
  const listed = responses[0]?.listedAt;
  return listed === undefined ? '#/paths' : listed.slice(0, listed.lastIndexOf('/'));
}

/** The one success response; an endpoint with none, or several, is not one the pages can explain. */
export function successResponse(responses: ResponseRow[]): ResponseRow {
  const successes = responses.filter((response) => /^2/.test(response.status));
  return exactlyOne(successes, listPointer(responses, successes), 'success (2xx) response', (response) => response.status);
}

/** The response a throttled request gets: the one that tells the client to wait with `Retry-After`. */
export function throttledResponse(responses: ResponseRow[]): ResponseRow {
  const throttled = responses.find((response) => response.headers.some((header) => header.name === retryAfterHeader));
  if (throttled === undefined) {
    throw contractError(listPointer(responses), `no response carries a \`${retryAfterHeader}\` header, so clients cannot be told how long to wait`);
  }
  return throttled;
}

/** The one failure of the service itself (5xx): the plugin failed and changed nothing. */
export function serviceFailureResponse(responses: ResponseRow[]): ResponseRow {
  const failures = responses.filter((response) => /^5/.test(response.status));
  return exactlyOne(failures, listPointer(responses, failures), 'server error (5xx) response of the service itself', (response) => response.status);
}

/** The response of a status the pages explain by name; a contract without it cannot be explained. */
export function responseWithStatus(responses: ResponseRow[], status: string, meaning: string): ResponseRow {
  const found = responses.find((response) => response.status === status);
  if (found === undefined) throw contractError(listPointer(responses), `no ${status} response is documented, the answer ${meaning}`);
  return found;
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
  if (row === undefined) throw contractError(listPointer(responses), `no error response documents the code \`${code}\`, ${meaning}`);
  return { ...row, code };
}

/** What a shop answers to a field its release does not know, as the contract's example shows it. */
export interface UnknownFieldAnswer {
  status: string;
  code: string;
  /** The member of the error body that holds the details, such as `data`. */
  detailsMember: string;
  /** The member of the details that names each refused field, such as `params`. */
  fieldsMember: string;
  example: NamedExample;
}

/** The single member of an example object whose value is itself an object or a list. */
function nestedMember(value: Record<string, unknown>, pointer: string, what: string): string {
  const names = Object.keys(value).filter((name) => typeof value[name] === 'object' && value[name] !== null);
  return exactlyOne(names, pointer, what, (name) => name);
}

/**
 * The answer to a request that sends a field the shop's release does not know: the error
 * example named `unknown_field`, its code, and where in its body the refused field is named.
 */
export function unknownFieldAnswer(responses: ResponseRow[]): UnknownFieldAnswer {
  const found = responses.flatMap((response) =>
    response.isError ? response.examples.filter((example) => example.name === unknownFieldExampleName).map((example) => ({ response, example })) : [],
  );
  const { response, example } = exactlyOne(found, listPointer(responses, found.map(({ response }) => response)), `\`${unknownFieldExampleName}\` error example`, ({ response }) => response.status);
  const pointer = childPointer(response.pointer, 'content', jsonMediaType, 'examples', unknownFieldExampleName);
  const value = example.value;
  if (!isRecord(value) || typeof value[errorCodeField] !== 'string') throw contractError(pointer, `the example has no \`${errorCodeField}\``);
  const code = value[errorCodeField];
  if (!response.errorCodes.some((known) => known.code === code)) {
    throw contractError(pointer, `the example's code \`${code}\` is not one the ${response.status} response documents`);
  }
  const detailsMember = nestedMember(value, pointer, 'member of the error body with details');
  const details = value[detailsMember];
  if (!isRecord(details)) throw contractError(pointer, `\`${detailsMember}\` is expected to be an object`);
  const fieldsMember = nestedMember(details, pointer, `member of \`${detailsMember}\` that names the refused fields`);
  return { status: response.status, code, detailsMember, fieldsMember, example };
}

/** The members of a refusal's details, as the conflict response's examples show them. */
export interface RefusalDetails {
  /** The member of the error body that holds the details, such as `data`. */
  detailsMember: string;
  /** The member naming the subscription's status, such as `current_status`. */
  currentStatus: string;
  /** The member listing the actions that would change the subscription, such as `allowed_actions`. */
  allowedActions: string;
  /** Each example's status and the actions it lists, for checking against the lifecycle. */
  examples: { name: string; status: string; actions: string[] }[];
}

/** Reads the conflict response's examples: where they name the status and the actions it allows. */
export function refusalDetails(responses: ResponseRow[], states: string[]): RefusalDetails {
  const conflict = responseWithStatus(responses, conflictStatus, 'to an action the current status refuses');
  const examplesPointer = childPointer(conflict.pointer, 'content', jsonMediaType, 'examples');
  const read = conflict.examples.map((example) => {
    const pointer = childPointer(examplesPointer, example.name);
    if (!isRecord(example.value)) throw contractError(pointer, 'the example is expected to be an object');
    const detailsMember = nestedMember(example.value, pointer, 'member of the error body with details');
    const details = example.value[detailsMember];
    if (!isRecord(details)) throw contractError(pointer, `\`${detailsMember}\` is expected to be an object`);
    const currentStatus = exactlyOne(
      Object.keys(details).filter((name) => typeof details[name] === 'string' && states.includes(details[name] as string)),
      pointer,
      'member naming the current status',
      (name) => name,
    );
    const allowedActions = exactlyOne(
      Object.keys(details).filter((name) => Array.isArray(details[name])),
      pointer,
      'member listing the allowed actions',
      (name) => name,
    );
    const actions = details[allowedActions] as unknown[];
    if (!actions.every((action): action is string => typeof action === 'string')) throw contractError(pointer, `\`${allowedActions}\` is expected to list strings`);
    return { name: example.name, detailsMember, currentStatus, allowedActions, status: details[currentStatus] as string, actions };
  });
  const [first] = read;
  if (first === undefined) throw contractError(examplesPointer, 'the conflict response needs an example');
  const differing = read.find((entry) => entry.currentStatus !== first.currentStatus || entry.allowedActions !== first.allowedActions || entry.detailsMember !== first.detailsMember);
  if (differing !== undefined) throw contractError(childPointer(examplesPointer, differing.name), 'names its details differently from the other examples');
  return {
    detailsMember: first.detailsMember,
    currentStatus: first.currentStatus,
    allowedActions: first.allowedActions,
    examples: read.map(({ name, status, actions }) => ({ name, status, actions })),
  };
}
