import { describeSchemaErrors } from '../lib/contract/schema-validator.ts';
import { isRecord } from '../lib/contract/document.ts';
import { isRetryAfter } from '../lib/http/retry-after.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { jsonMediaType } from '../lib/contract/request-body.ts';
import { errorDataField } from '../lib/contract/responses.ts';
import type { Expectation } from './cases.ts';
import { unnamedMembers } from './unnamed-members.ts';

/** An answer as it came back: status, headers (names in lower case) and the body's text. */
export interface ReceivedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the document alone says of an answer: mismatches, and members it does not name. */
export interface DocumentCheck {
  /** What is wrong, each in a sentence: a case with any fails. */
  problems: string[];
  /** Members the document does not name, which clients must tolerate: reported, never a failure. */
  notes: string[];
}

/**
 * Checks an answer against the document alone, whatever was asked. Strict on what the document
 * names: a documented status, a JSON body declared as JSON, every required member present and
 * every named member of the right type and value (the published schema), `data.status` equal to
 * the HTTP status, a required header present and well formed. Tolerant of what it does not name:
 * a member no schema names (WordPress adds `data.details`, for one) is a note, as the document
 * asks every client to ignore it.
 */
export function reviewAnswer(contract: ExecutableContract, answer: ReceivedAnswer): DocumentCheck {
  const response = contract.response(answer.status);
  if (response === undefined) {
    const documented = contract.model.responses.map((candidate) => candidate.status).join(', ');
    return { problems: [`status ${answer.status} is not one the document gives (${documented})`], notes: [] };
  }
  const problems: string[] = [];
  for (const header of response.headers) {
    const value = answer.headers[header.name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`the ${answer.status} answer lacks the ${header.name} header the document requires`);
    } else if (header.name === contract.retryAfterHeader && !isRetryAfter(value.trim())) {
      problems.push(`${header.name} is "${value}", neither seconds nor an HTTP date`);
    }
  }
  if (response.body === undefined) return { problems, notes: [] };

  const mediaType = (answer.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== jsonMediaType) problems.push(`Content-Type is "${answer.headers['content-type'] ?? ''}", not ${jsonMediaType}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return { problems: [...problems, `the body is not JSON: ${JSON.stringify(answer.body.slice(0, 120))}`], notes: [] };
  }
  const validate = contract.schemas.schemaAt(response.body.pointer);
  if (!validate(body)) {
    problems.push(...describeSchemaErrors(validate.errors ?? []).map((problem) => `against ${response.body?.pointer ?? 'the schema'}: ${problem}`));
  }
  const data = isRecord(body) ? body[errorDataField] : undefined;
  if (response.isError && isRecord(data) && data[contract.errors.statusMember] !== answer.status) {
    problems.push(`\`${errorDataField}.${contract.errors.statusMember}\` is ${JSON.stringify(data[contract.errors.statusMember])}, not the HTTP status ${answer.status}`);
  }
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : String(answer.status);
  const notes = unnamedMembers(contract.document, { $ref: response.body.pointer }, body).map(
    (member) => `${member.parent === '' ? 'the body' : `\`${member.parent}\``} has a member the document does not name: \`${member.name}\` (${code})`,
  );
  return { problems, notes };
}

/** What is wrong with an answer by the document alone: `reviewAnswer`'s mismatches, without the notes. */
export function checkAgainstDocument(contract: ExecutableContract, answer: ReceivedAnswer): string[] {
  return reviewAnswer(contract, answer).problems;
}

function sameSet(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((item) => right.includes(item));
}

/** What is wrong with an answer given what the case expects of it. */
export function checkExpectation(contract: ExecutableContract, answer: ReceivedAnswer, expected: Expectation): string[] {
  const problems: string[] = [];
  if (answer.status !== expected.status) problems.push(`expected status ${expected.status}, got ${answer.status}`);
  if (expected.retryAfter !== undefined) {
    const value = answer.headers[contract.retryAfterHeader.toLowerCase()];
    if (value !== expected.retryAfter) problems.push(`expected ${contract.retryAfterHeader}: ${expected.retryAfter}, got ${value ?? 'none'}`);
  }
  if (contract.response(expected.status)?.body === undefined) return problems;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return problems;
  }
  if (!isRecord(body)) return [...problems, 'the body is not a JSON object'];
  if (expected.code !== undefined && body.code !== expected.code) {
    problems.push(`expected code ${expected.code}, got ${JSON.stringify(body.code)}`);
  }
  for (const [name, value] of Object.entries(expected.result ?? {})) {
    if (body[name] !== value) problems.push(`expected \`${name}\` ${JSON.stringify(value)}, got ${JSON.stringify(body[name])}`);
  }
  const data = isRecord(body[errorDataField]) ? body[errorDataField] : {};
  const { errors } = contract;
  if (expected.conflict !== undefined) {
    const current = data[errors.currentStatusMember];
    if (current !== expected.conflict.currentStatus) {
      problems.push(`expected \`${errors.currentStatusMember}\` ${expected.conflict.currentStatus}, got ${JSON.stringify(current)}`);
    }
    const allowed = data[errors.allowedActionsMember];
    if (!Array.isArray(allowed) || !sameSet(allowed, expected.conflict.allowedActions)) {
      problems.push(`expected \`${errors.allowedActionsMember}\` ${JSON.stringify(expected.conflict.allowedActions)}, got ${JSON.stringify(allowed)}`);
    }
  }
  const params = data[errors.paramsMember];
  if (expected.missing !== undefined && (!Array.isArray(params) || !sameSet(params, expected.missing))) {
    problems.push(`expected \`${errors.paramsMember}\` to list the missing ${JSON.stringify(expected.missing)}, got ${JSON.stringify(params)}`);
  }
  if (expected.rejected !== undefined && (!isRecord(params) || !sameSet(Object.keys(params), expected.rejected))) {
    problems.push(`expected \`${errors.paramsMember}\` to name the rejected ${JSON.stringify(expected.rejected)}, got ${JSON.stringify(params)}`);
  }
  return problems;
}
