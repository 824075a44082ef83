import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import type { Endpoint, ErrorCode, NamedExample, ResponseHeader, ResponseRow } from './model.ts';
import { jsonMediaType } from './request-body.ts';
import { errorCodeField, errorDataField, errorStatusMember } from './response-names.ts';
import type { ResolvedSchema } from './schemas.ts';
import { alternatives, childPointer, contractError, resolveObject, resolveSchema } from './schemas.ts';
import { fieldsOf, typeLabel } from './fields.ts';
import { attempt, throwAtFirst, type ReportProblem } from './problems.ts';

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
