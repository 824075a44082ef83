import type { Action } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Answer, StageResult } from './answer.ts';
import { errorAnswer } from './answer.ts';
import { sanitizeArgument, validateArgument } from './argument-validation.ts';
import type { RestRequest } from './rest-request.ts';
import { topLevelMemberNames } from './json-member-order.ts';
import { getParameter, jsonMembers } from './rest-request.ts';
import type { RouteArgument } from '../lib/contract/route-arguments.ts';

/** A request the sandbox can act on: the action, the subscription, and what the action needs. */
export interface ValidRequest {
  action: Action;
  subscriptionId: number;
  /** The target status a chosen transition (`change_status`) names. */
  requestedStatus?: string;
  note?: string;
  /** The ID as the plugin's messages print it, where JavaScript's number cannot (past 2^53). */
  subscriptionIdText?: string;
}

/** PHP's largest integer, 2^63 - 1: a JSON integer above it arrives as a float. */
const phpIntMax = 2n ** 63n - 1n;

/** PHP's `(int)` of a numeric string (PHP 8): past 64 bits it saturates; an infinite float (`1e999`) is 0. */
export function phpIntOfNumericString(text: string): bigint | undefined {
  // PHP's whitespace around a numeric string: space, \t, \n, \r, \v, \f.
  const trimmed = text.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, '');
  const clamp = (value: bigint) => (value > phpIntMax ? phpIntMax : value < -phpIntMax - 1n ? -phpIntMax - 1n : value);
  if (/^[+-]?\d+$/.test(trimmed)) return clamp(BigInt(trimmed));
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? clamp(BigInt(Math.trunc(value))) : 0n;
}

/**
 * The subscription ID as the plugin prints it: `%d` of the integer PHP holds (a numeric string's
 * `(int)` cast, a JSON integer of up to 64 bits exactly, where JavaScript's number rounds it), or
 * `%.0f` of a JSON number past PHP's integers, which is `INF` for an infinite one (`1e999`).
 */
export function phpIdText(sent: { source: string } | string | undefined, id: number): string {
  if (typeof sent === 'string') {
    const cast = phpIntOfNumericString(sent);
    if (cast !== undefined) return cast.toString();
  } else if (sent !== undefined && /^[+-]?\d+$/.test(sent.source)) {
    const exact = BigInt(sent.source);
    if (exact <= phpIntMax && exact >= -phpIntMax - 1n) return exact.toString();
  }
  if (!Number.isFinite(id)) return id > 0 ? 'INF' : '-INF';
  return BigInt(Math.trunc(id)).toString();
}

/** The JSON body's members, sanitised as core leaves them for the plugin. */
export type BodyFields = Record<string, unknown>;

/** `rest_invalid_json`, with PHP's own error in `data`, as `WP_REST_Request::has_valid_json_params` gives it. */
export function invalidJsonAnswer(contract: ExecutableContract, request: RestRequest): Answer | undefined {
  if (request.json.kind !== 'invalid') return undefined;
  const { invalidJson } = contract.errors;
  return errorAnswer(contract, invalidJson, invalidJson.message, {
    json_error_code: request.json.errorCode,
    json_error_message: request.json.errorMessage,
  });
}

/**
 * Core's stage (`WP_REST_Request::has_valid_params`, then `sanitize_params`): the required
 * arguments first, all missing ones in one `rest_missing_callback_param`; then every argument
 * present, from any source, against its schema, all rejected ones in one `rest_invalid_param`
 * with WordPress's `details`. Hands on the JSON body with its arguments sanitised.
 */
export function checkArguments(contract: ExecutableContract, routeArguments: readonly RouteArgument[], request: RestRequest): StageResult<BodyFields> {
  const { missingParameter, invalidParameter, paramsMember } = contract.errors;
  const missing = routeArguments.filter((argument) => argument.required && getParameter(request, argument.name) === undefined).map((argument) => argument.name);
  if (missing.length > 0) {
    return { answer: errorAnswer(contract, missingParameter, `Missing parameter(s): ${missing.join(', ')}`, { [paramsMember]: missing }) };
  }
  const reasons: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const argument of routeArguments) {
    const value = getParameter(request, argument.name);
    if (value === undefined) continue;
    const problem = validateArgument(argument.name, value, argument.schema);
    if (problem === undefined) continue;
    reasons[argument.name] = problem.message;
    details[argument.name] = { code: problem.code, message: problem.message, data: problem.data ?? null };
  }
  if (Object.keys(reasons).length > 0) {
    return {
      answer: errorAnswer(contract, invalidParameter, `Invalid parameter(s): ${Object.keys(reasons).join(', ')}`, { [paramsMember]: reasons, details }),
    };
  }
  // No prototype: `__proto__` stays a member, as in the array PHP's json_decode gives, and is refused as a field the action does not take.
  const fields: BodyFields = Object.create(null) as BodyFields;
  for (const [name, value] of Object.entries(jsonMembers(request))) {
    const argument = routeArguments.find((candidate) => candidate.name === name);
    fields[name] = argument === undefined ? value : sanitizeArgument(value, argument.schema);
  }
  return { value: fields };
}

/**
 * The plugin's own check of the selected action's branch, which core cannot make from one route's
 * `args`: the fields that action requires, and no field it does not take. It reads the JSON body
 * only, and runs before the key (a `rest_request_before_callbacks` filter), like core's stage.
 * Whether a required field was sent is read from the body as sent: core has sanitised a null into
 * its type's cast ("" for a string) by then, and a null counts as absent, as core's own check of a
 * required argument has it.
 */
export function checkActionFields(contract: ExecutableContract, fields: BodyFields, request: RestRequest): StageResult<Action> {
  const { envelope } = contract.model;
  const { missingParameter, invalidParameter, paramsMember } = contract.errors;
  const sent = jsonMembers(request);
  const selected = fields[envelope.selector];
  const action = typeof selected === 'string' ? contract.action(selected) : undefined;
  const expected = action === undefined ? envelope.sharedFields : action.fields;
  const missing = expected.filter((field) => field.required && field.name !== envelope.credential && (sent[field.name] ?? null) === null).map((field) => field.name);
  if (missing.length > 0 || action === undefined) {
    return { answer: errorAnswer(contract, missingParameter, `Missing parameter(s): ${missing.join(', ')}`, { [paramsMember]: missing }) };
  }
  // A member the action does not take is refused whatever its value, null included.
  const taken = fieldNamesOf(action);
  const inTextOrder = request.json.kind === 'parsed' ? topLevelMemberNames(request.json.text) : Object.keys(fields);
  const unknown = inTextOrder.filter((name) => !taken.has(name));
  if (unknown.length > 0) {
    const reasons = Object.fromEntries(unknown.map((name) => [name, `${name} is not a field that ${action.identifier} accepts.`]));
    return { answer: errorAnswer(contract, invalidParameter, `Invalid parameter(s): ${unknown.join(', ')}`, { [paramsMember]: reasons }) };
  }
  return { value: action };
}

const fieldNamesByAction = new WeakMap<Action, Set<string>>();

/** The names of the fields an action takes, gathered once per action. */
function fieldNamesOf(action: Action): Set<string> {
  let names = fieldNamesByAction.get(action);
  if (names === undefined) {
    names = new Set(action.fields.map((field) => field.name));
    fieldNamesByAction.set(action, names);
  }
  return names;
}

/** The plugin's permission callback: the JSON body's key, and nothing else, opens the route. */
export function keyAccepted(contract: ExecutableContract, request: RestRequest, apiKey: string): boolean {
  return jsonMembers(request)[contract.model.envelope.credential] === apiKey;
}

export function invalidKeyAnswer(contract: ExecutableContract): Answer {
  const { invalidKey } = contract.errors;
  return errorAnswer(contract, invalidKey, invalidKey.message);
}

/** What the plugin's callback acts on, read from the checked and sanitised body. */
export function validRequest(contract: ExecutableContract, action: Action, fields: BodyFields, sentSubject?: { source: string } | string): ValidRequest {
  const { envelope } = contract.model;
  const transition = action.transition;
  const requestedStatus = transition.kind === 'chosen' ? fields[transition.field] : undefined;
  const note = envelope.note === undefined ? undefined : fields[envelope.note];
  const subscriptionId = fields[envelope.subject] as number;
  return {
    action,
    subscriptionId,
    ...(Number.isSafeInteger(subscriptionId) ? {} : { subscriptionIdText: phpIdText(sentSubject, subscriptionId) }),
    ...(typeof requestedStatus === 'string' ? { requestedStatus } : {}),
    ...(typeof note === 'string' ? { note } : {}),
  };
}
