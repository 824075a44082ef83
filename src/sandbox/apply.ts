import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { allowedActions, outcomeOf } from '../lib/contract/lifecycle.ts';
import { successResponse } from '../lib/contract/response-lookups.ts';
import type { Answer } from './answer.ts';
import { errorAnswer, jsonAnswer } from './answer.ts';
import type { ExampleStarts } from './seed.ts';
import type { SubscriptionStore } from './store.ts';
import type { ValidRequest } from './validate.ts';

function refusalMessage(request: ValidRequest, current: string): string {
  const { action, requestedStatus } = request;
  if (action.transition.kind === 'chosen' && requestedStatus !== undefined && action.transition.moves.some((move) => move.from === current)) {
    return `${action.identifier} cannot move a subscription that is ${current} to ${requestedStatus}.`;
  }
  return `${action.identifier} does not apply to a subscription that is ${current}.`;
}

// The success response's status, read once per contract rather than looked up for every answer.
const successStatusByContract = new WeakMap<ExecutableContract, number>();

function successStatus(contract: ExecutableContract): number {
  let status = successStatusByContract.get(contract);
  if (status === undefined) {
    status = Number(successResponse(contract.model.responses).status);
    successStatusByContract.set(contract, status);
  }
  return status;
}

/**
 * The third stage: the lifecycle of `x-transitions`, applied to the stored subscription inside one
 * transaction. A changed status is written with an entry in the subscription's history, which
 * keeps the note. An action whose target already holds answers `changed: false` and records
 * nothing, note included: a retried request leaves no trace (openapi/README.md records this).
 * With `exampleStarts` (the sandbox's own seed), an example's subscription that has no history yet
 * stands in the status the action's own example starts from, so that every example answers as its
 * page shows from a fresh sandbox; its first change gives it a history, and from then on its
 * stored status alone counts.
 */
export function applyAction(contract: ExecutableContract, store: SubscriptionStore, request: ValidRequest, exampleStarts?: ExampleStarts): Answer {
  const { result, errors, model } = contract;
  const { action, subscriptionId } = request;
  const shownId = request.subscriptionIdText ?? String(subscriptionId);
  // IDs past what SQLite and JavaScript hold exactly cannot name a stored subscription.
  if (!Number.isSafeInteger(subscriptionId)) {
    return errorAnswer(contract, errors.subscriptionNotFound, `Subscription ${shownId} was not found.`);
  }
  const exampleStart = exampleStarts?.get(subscriptionId)?.get(action.identifier);
  const untouched = exampleStart !== undefined && store.history(subscriptionId).length === 0;
  return store.act(subscriptionId, (stored) => {
    const current = stored !== undefined && untouched ? exampleStart : stored;
    if (current === undefined) {
      return { result: errorAnswer(contract, errors.subscriptionNotFound, `Subscription ${shownId} was not found.`) };
    }
    const outcome = outcomeOf(action.transition, current, request.requestedStatus);
    if (outcome.kind === 'refused') {
      return {
        result: errorAnswer(contract, errors.transitionNotAllowed, refusalMessage(request, current), {
          [errors.currentStatusMember]: current,
          [errors.allowedActionsMember]: allowedActions(model.lifecycle, current),
        }),
      };
    }
    const after = outcome.kind === 'changed' ? outcome.to : current;
    const body = {
      [result.successFlag]: true,
      [result.action]: action.identifier,
      [result.subject]: subscriptionId,
      [result.previousStatus]: current,
      [result.status]: after,
      [result.changed]: outcome.kind === 'changed',
    };
    return {
      ...(outcome.kind === 'changed'
        ? { change: { action: action.identifier, to: outcome.to, ...(request.note === undefined ? {} : { note: request.note }) } }
        : {}),
      result: jsonAnswer(successStatus(contract), body),
    };
  });
}
