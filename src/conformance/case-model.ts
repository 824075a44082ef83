import type { Action, ChosenTransition } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { TransitionOutcome } from '../lib/contract/lifecycle.ts';
import { allowedActions, outcomeOf } from '../lib/contract/lifecycle.ts';
import { jsonMediaType } from '../lib/contract/request-body.ts';
import { successResponse } from '../lib/contract/response-lookups.ts';

/**
 * The vocabulary of the suite's cases (what a case sends, what it expects, what came back) and the
 * few builders every kind of case shares. Every other file of the suite reads these from here, so
 * no two of its files need each other.
 */

/** An answer as it came back: status, headers (names in lower case) and the body's text. */
export interface ReceivedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request as the suite sends it; `path` is appended to the base URL. */
export interface CaseRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body as sent: text, or bytes for a body that is not even UTF-8. */
  body?: string | Uint8Array;
}

/** What the document says the answer to a case must be, beyond what every answer must be. */
export interface Expectation {
  status: number;
  code?: string;
  /** Members of the success body and the values they must have. */
  result?: Record<string, unknown>;
  /** The 409's details: the current status and the actions it accepts. */
  conflict?: { currentStatus: string; allowedActions: string[] };
  /** A 400's `params`: the missing fields, or the fields rejected. */
  missing?: string[];
  rejected?: string[];
  /** The `Retry-After` value the answer must carry. */
  retryAfter?: string;
  /**
   * Any of these refusals will do (`status` and `code` are then the first): a request the document
   * refuses for more than one reason, such as the key sent where the contract does not read it.
   */
  refusals?: { status: number; code: string }[];
}

/**
 * `lifecycle`: every action from every status; `acceptance`: valid requests at the edges of what the
 * document allows (each bound's last valid value, each optional field left out), which must succeed;
 * `generated`: the seeded pass of valid bodies generated from the request schemas.
 */
export type CaseGroup = 'lifecycle' | 'acceptance' | 'generated' | 'request' | 'route' | 'host';

/** What a case needs from the subscriptions it may use. */
export type CaseNeeds =
  /** A subscription in this status; the case may change it. */
  | { kind: 'status'; status: string }
  /** Any subscription: the request is refused before its status matters. */
  | { kind: 'any' }
  /** No subscription at all. */
  | { kind: 'none' };

export interface ConformanceCase {
  /** Unique, readable: `pause_subscription from trial`. */
  name: string;
  group: CaseGroup;
  /** For the coverage matrix: the action and the status it was sent to, and the outcome expected. */
  action?: string;
  fromStatus?: string;
  requestedStatus?: string;
  outcome?: TransitionOutcome['kind'];
  needs: CaseNeeds;
  request(subscriptionId: number): CaseRequest;
  expect(subscriptionId: number): Expectation;
  /** Only a deployment that imitates its host (the sandbox) must answer this case as expected. */
  hostImitation?: boolean;
}

/** What the cases are built from besides the contract. */
export interface CaseSettings {
  apiKey: string;
  /** The ID used where no subscription may exist. */
  unknownSubscriptionId: number;
  /** The subscriptions the run may use, which the cases that need an ID the site does not have leave alone. */
  namedSubscriptions?: readonly number[];
  /** The header that asks the sandbox to answer as a throttling host, and its value. */
  throttleHeader: string;
}

export const jsonHeaders = { 'content-type': jsonMediaType };

/** An unknown member name no version of the document will give a field: the suite's own prefix. */
export const unknownFieldName = 'conformance_unknown_field';

/**
 * The request that never changes a subscription: `change_status` to a status no move leads to.
 * It answers the current status either way (a `changed: false` success, or a 409 that names it),
 * so the suite learns where each subscription stands without moving it.
 */
export function probeTarget(contract: ExecutableContract): { transition: ChosenTransition; action: Action; status: string } | undefined {
  for (const action of contract.model.actions) {
    const transition = action.transition;
    if (transition.kind !== 'chosen') continue;
    const targets = new Set(transition.moves.flatMap((move) => move.to));
    const status = contract.model.lifecycle.states.find((state) => !targets.has(state));
    if (status !== undefined) return { transition, action, status };
  }
  return undefined;
}

/** A valid body for an action, built from the document's example with the site's key and the subscription. */
export function validBody(contract: ExecutableContract, action: Action, settings: Pick<CaseSettings, 'apiKey'>, subscriptionId: number, requestedStatus?: string): Record<string, unknown> {
  const { envelope } = contract.model;
  const body: Record<string, unknown> = { ...action.requestExample.value, [envelope.credential]: settings.apiKey, [envelope.subject]: subscriptionId };
  if (action.transition.kind === 'chosen' && requestedStatus !== undefined) body[action.transition.field] = requestedStatus;
  return body;
}

export function postRequest(contract: ExecutableContract, body: Record<string, unknown> | string | Uint8Array, headers: Record<string, string> = jsonHeaders): CaseRequest {
  return {
    method: contract.model.endpoint.method,
    path: contract.model.endpoint.urlPath,
    headers,
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  };
}

/**
 * What the document says of a valid request for `action` sent to a subscription in `fromStatus`:
 * the success with the status the lifecycle table gives, or its refusal naming the status and the
 * actions it accepts.
 */
export function lifecycleExpectation(contract: ExecutableContract, action: Action, fromStatus: string, requestedStatus: string | undefined, subscriptionId: number): Expectation {
  const { model, result, errors } = contract;
  const outcome = outcomeOf(action.transition, fromStatus, requestedStatus);
  if (outcome.kind === 'refused') {
    return {
      status: errors.transitionNotAllowed.status,
      code: errors.transitionNotAllowed.code,
      conflict: { currentStatus: fromStatus, allowedActions: allowedActions(model.lifecycle, fromStatus) },
    };
  }
  return {
    status: Number(successResponse(model.responses).status),
    result: {
      [result.successFlag]: true,
      [result.action]: action.identifier,
      [result.subject]: subscriptionId,
      [result.previousStatus]: fromStatus,
      [result.status]: outcome.kind === 'changed' ? outcome.to : fromStatus,
      [result.changed]: outcome.kind === 'changed',
    },
  };
}
