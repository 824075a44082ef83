import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { errorDataField } from '../lib/contract/response-names.ts';
import type { Expectation, ReceivedAnswer } from './case-model.ts';

/** What a case expects, in the wire's own names: `409 service_transition_not_allowed, data.current_status "expired", ...`. */
export function describeExpectation(contract: ExecutableContract, expected: Expectation): string {
  const { errors } = contract;
  const data = (member: string) => `${errorDataField}.${member}`;
  const parts: string[] = [
    expected.refusals === undefined
      ? `${expected.status}${expected.code === undefined ? '' : ` ${expected.code}`}`
      : `one of ${expected.refusals.map((refusal) => `${refusal.status} ${refusal.code}`).join(', ')}`,
  ];
  if (expected.retryAfter !== undefined) parts.push(`${contract.retryAfterHeader}: ${expected.retryAfter}`);
  for (const [name, value] of Object.entries(expected.result ?? {})) parts.push(`${name} ${JSON.stringify(value)}`);
  if (expected.conflict !== undefined) {
    parts.push(`${data(errors.currentStatusMember)} ${JSON.stringify(expected.conflict.currentStatus)}`);
    parts.push(`${data(errors.allowedActionsMember)} ${JSON.stringify(expected.conflict.allowedActions)}`);
  }
  if (expected.missing !== undefined) parts.push(`${data(errors.paramsMember)} ${JSON.stringify(expected.missing)}`);
  if (expected.rejected !== undefined) parts.push(`${data(errors.paramsMember)} naming ${expected.rejected.map((name) => `\`${name}\``).join(', ')}`);
  return parts.join(', ');
}

function sameSet(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((item) => right.includes(item));
}

function sameList(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((item, index) => right[index] === item);
}

/** A JSON value's type as the document names it: an integer is told from other numbers. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

function withArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** How an `allowed_actions` list differs from the one expected, in words that do not depend on the list. */
function allowedDifference(allowed: unknown, wanted: readonly string[]): string {
  if (!Array.isArray(allowed)) return `is ${withArticle(jsonType(allowed))}, not a list of actions`;
  const extra = allowed.some((item) => !wanted.includes(item as string));
  const lacking = wanted.some((item) => !allowed.includes(item));
  if (extra && !lacking) return 'lists actions that would not change the status';
  if (lacking && !extra) return 'leaves out actions that would change the status';
  return 'is not the list of the actions that would change the status';
}

export interface ExpectationCheck {
  /** What differs from the expectation, each in a sentence in the wire's names. */
  problems: string[];
  /** The wire names of the members those sentences are about (`previous_status`, `data.allowed_actions`). */
  members: string[];
  /** The status is not the one expected: every other check of the answer follows from that. */
  wrongStatus: boolean;
}

/** What is wrong with an answer given what the case expects of it. */
export function expectationProblems(contract: ExecutableContract, answer: ReceivedAnswer, expected: Expectation): ExpectationCheck {
  const problems: string[] = [];
  const members: string[] = [];
  const refusal = expected.refusals?.find((candidate) => candidate.status === answer.status);
  const status = refusal?.status ?? expected.status;
  const code = refusal?.code ?? expected.code;
  if (answer.status !== status) {
    const wanted = expected.refusals === undefined ? String(expected.status) : `one of ${[...new Set(expected.refusals.map((candidate) => candidate.status))].join(', ')}`;
    return { problems: [`expected status ${wanted}, got ${answer.status}`], members, wrongStatus: true };
  }
  if (expected.retryAfter !== undefined) {
    const value = answer.headers[contract.retryAfterHeader.toLowerCase()];
    if (value !== expected.retryAfter) problems.push(`expected ${contract.retryAfterHeader}: ${expected.retryAfter}, got ${value ?? 'none'}`);
  }
  if (contract.response(status)?.body === undefined) return { problems, members, wrongStatus: false };
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return { problems, members, wrongStatus: false };
  }
  if (!isRecord(body)) return { problems: [...problems, 'the body is not a JSON object'], members, wrongStatus: false };
  const missing = (name: string) => `\`${name}\` is missing from the ${answer.status} answer`;
  // The sentence names the member and the kind of difference, never the values, which differ from
  // case to case (a subscription's ID, a status): one fault is one finding, and the example shows the values.
  const compare = (name: string, actual: unknown, wanted: unknown, wrongValue: string) => {
    if (actual === wanted) return;
    members.push(name);
    if (actual === undefined) problems.push(missing(name));
    else if (jsonType(actual) !== jsonType(wanted)) problems.push(`\`${name}\` is ${withArticle(jsonType(actual))} where the document says ${jsonType(wanted)}`);
    else problems.push(`\`${name}\` ${wrongValue}`);
  };
  const codes = expected.refusals?.filter((candidate) => candidate.status === answer.status).map((candidate) => candidate.code) ?? (code === undefined ? [] : [code]);
  if (codes.length > 0 && !codes.includes(body.code as string)) compare('code', body.code, codes.length === 1 ? codes[0] : codes, `is not ${codes.map((one) => JSON.stringify(one)).join(' or ')}`);
  const { errors, result } = contract;
  const changes = expected.result?.[result.changed] === true;
  const wrongResult: Record<string, string> = {
    [result.successFlag]: 'is not true',
    [result.action]: 'is not the action the request named',
    [result.subject]: 'is not the subscription the request named',
    [result.previousStatus]: 'is not the status the subscription was in',
    [result.status]: changes ? 'is not the status the action moves to' : 'is not the status the subscription was in, which the action leaves unchanged',
    [result.changed]: changes ? 'is false where the action changes the status' : 'is true where the action changes nothing',
  };
  for (const [name, value] of Object.entries(expected.result ?? {})) compare(name, body[name], value, wrongResult[name] ?? 'is not the value the document gives');
  const data = isRecord(body[errorDataField]) ? body[errorDataField] : {};
  const inData = (member: string) => `${errorDataField}.${member}`;
  if (expected.conflict !== undefined) {
    compare(inData(errors.currentStatusMember), data[errors.currentStatusMember], expected.conflict.currentStatus, 'is not the status the subscription is in');
    const allowed = data[errors.allowedActionsMember];
    const wanted = expected.conflict.allowedActions;
    if (!Array.isArray(allowed) || !sameList(allowed, wanted)) {
      members.push(inData(errors.allowedActionsMember));
      problems.push(
        allowed === undefined
          ? missing(inData(errors.allowedActionsMember))
          : Array.isArray(allowed) && sameSet(allowed, wanted)
            ? // One sentence for the fault, whatever the lists: the example below it shows one in full.
              `\`${inData(errors.allowedActionsMember)}\` is not in the order of the request body's actions (${contract.model.actions.map((action) => action.identifier).join(', ')})`
            : `\`${inData(errors.allowedActionsMember)}\` ${allowedDifference(allowed, wanted)} (the actions that would change the status, in the order of the request body's actions)`,
      );
    }
  }
  const params = data[errors.paramsMember];
  const paramsName = inData(errors.paramsMember);
  if (expected.missing !== undefined && (!Array.isArray(params) || !sameSet(params, expected.missing))) {
    members.push(paramsName);
    problems.push(params === undefined ? missing(paramsName) : `\`${paramsName}\` does not list exactly the missing fields`);
  }
  if (expected.rejected !== undefined && (!isRecord(params) || !sameSet(Object.keys(params), expected.rejected))) {
    members.push(paramsName);
    problems.push(params === undefined ? missing(paramsName) : `\`${paramsName}\` does not name exactly the rejected fields`);
  }
  return { problems, members, wrongStatus: false };
}
