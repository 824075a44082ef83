import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { errorDataField } from '../lib/contract/responses.ts';
import type { Expectation } from './cases.ts';
import type { ReceivedAnswer } from './check-answer.ts';

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
  const compare = (name: string, actual: unknown, wanted: unknown, same = actual === wanted) => {
    if (same) return;
    members.push(name);
    problems.push(actual === undefined ? missing(name) : `expected \`${name}\` ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`);
  };
  const codes = expected.refusals?.filter((candidate) => candidate.status === answer.status).map((candidate) => candidate.code) ?? (code === undefined ? [] : [code]);
  if (codes.length > 0 && !codes.includes(body.code as string)) compare('code', body.code, codes.length === 1 ? codes[0] : codes);
  for (const [name, value] of Object.entries(expected.result ?? {})) compare(name, body[name], value);
  const data = isRecord(body[errorDataField]) ? body[errorDataField] : {};
  const { errors } = contract;
  const inData = (member: string) => `${errorDataField}.${member}`;
  if (expected.conflict !== undefined) {
    compare(inData(errors.currentStatusMember), data[errors.currentStatusMember], expected.conflict.currentStatus);
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
            : `expected \`${inData(errors.allowedActionsMember)}\` ${JSON.stringify(wanted)} (the actions that would change the status, in the order of the request body's actions), got ${JSON.stringify(allowed)}`,
      );
    }
  }
  const params = data[errors.paramsMember];
  const paramsName = inData(errors.paramsMember);
  if (expected.missing !== undefined && (!Array.isArray(params) || !sameSet(params, expected.missing))) {
    members.push(paramsName);
    problems.push(params === undefined ? missing(paramsName) : `expected \`${paramsName}\` to list the missing ${JSON.stringify(expected.missing)}, got ${JSON.stringify(params)}`);
  }
  if (expected.rejected !== undefined && (!isRecord(params) || !sameSet(Object.keys(params), expected.rejected))) {
    members.push(paramsName);
    problems.push(params === undefined ? missing(paramsName) : `expected \`${paramsName}\` to name the rejected ${JSON.stringify(expected.rejected)}, got ${JSON.stringify(params)}`);
  }
  return { problems, members, wrongStatus: false };
}
