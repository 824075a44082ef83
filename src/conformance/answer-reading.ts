import { isRecord } from '../lib/contract/document.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { errorDataField } from '../lib/contract/response-names.ts';
import type { ReceivedAnswer } from './case-model.ts';

/** What the run reads from an answer to place its subscriptions: the status it reveals, its code, the key sent back. */

export function parsedCode(answer: ReceivedAnswer | undefined): string | undefined {
  if (answer === undefined) return undefined;
  try {
    const body: unknown = JSON.parse(answer.body);
    return isRecord(body) && typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

export function isJson(answer: ReceivedAnswer): boolean {
  try {
    JSON.parse(answer.body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The status an answer reveals: the status after a success, or the current status a refusal
 * names. Read whatever the HTTP status, so that a deployment answering a refusal with the wrong
 * status still lets the suite place its subscriptions, and the cases report the wrong status.
 */
export function revealedStatus(contract: ExecutableContract, answer: ReceivedAnswer | undefined): string | undefined {
  if (answer === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  const states = contract.model.lifecycle.states;
  const data = body[errorDataField];
  const current = isRecord(data) ? data[contract.errors.currentStatusMember] : undefined;
  if (typeof current === 'string' && states.includes(current)) return current;
  const after = body[contract.result.status];
  return typeof after === 'string' && states.includes(after) && body[contract.result.successFlag] === true ? after : undefined;
}

/** The status an answer says the subscription had when the request came: a success's previous status, a refusal's current one. */
export function statusFound(contract: ExecutableContract, answer: ReceivedAnswer | undefined): string | undefined {
  const current = revealedStatus(contract, answer);
  if (current === undefined || answer === undefined) return undefined;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  const before = body[contract.result.previousStatus];
  return typeof before === 'string' ? before : current;
}

/** The deployment went past the checks of the request to the subscription: a success or the lifecycle's refusal. */
export function actedOn(contract: ExecutableContract, answer: ReceivedAnswer | undefined): boolean {
  const { transitionNotAllowed } = contract.errors;
  return answer !== undefined && (revealedStatus(contract, answer) !== undefined || (answer.status === transitionNotAllowed.status && parsedCode(answer) === transitionNotAllowed.code));
}

/**
 * The key in an answer's body or headers: the document's `writeOnly` key is never sent back. A key
 * too short to be told from ordinary text is not looked for.
 */
export function keyEchoed(answer: ReceivedAnswer, apiKey: string): boolean {
  if (apiKey.length < 8) return false;
  return answer.body.includes(apiKey) || Object.values(answer.headers).some((value) => value.includes(apiKey));
}

/** Why a refusal does not tell the status: the member that should say it, missing or not a status of the document. */
export function unreadableStatus(contract: ExecutableContract, answer: ReceivedAnswer): string {
  const { transitionNotAllowed, currentStatusMember } = contract.errors;
  if (answer.status !== transitionNotAllowed.status || parsedCode(answer) !== transitionNotAllowed.code) return '';
  const body: unknown = JSON.parse(answer.body);
  const data = isRecord(body) ? body[errorDataField] : undefined;
  const current = isRecord(data) ? data[currentStatusMember] : undefined;
  const member = `\`${errorDataField}.${currentStatusMember}\``;
  return current === undefined ? `: its status cannot be read: ${member} is missing` : `: its status cannot be read: ${member} is ${JSON.stringify(current)}, not a status of the document`;
}
