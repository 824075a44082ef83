/**
 * The load both sandbox benches send: two fixed actions of the contract that undo each other, so
 * that every request of a client changes its own subscription, and each client's two bodies.
 */
import type { Action } from '../../src/lib/contract/model.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { validBody } from '../../src/conformance/cases.ts';
import { defaultApiKey } from '../../src/sandbox/seed.ts';

export interface TogglingLoad {
  there: { action: Action; to: string };
  back: { action: Action; to: string };
  /** The status every subscription starts in, the one `there` leads from. */
  initial: string;
  /** Per client, the body that goes there and the one that comes back, for subscription client + 1. */
  bodies: [string, string][];
}

export function togglingLoad(contract: ExecutableContract, clients: number): TogglingLoad {
  const fixed = contract.model.actions.flatMap((action) => (action.transition.kind === 'fixed' ? [{ action, transition: action.transition }] : []));
  const pair = fixed
    .flatMap((there) => fixed.map((back) => ({ there, back })))
    .find(({ there, back }) => there.transition.from.length === 1 && back.transition.from.includes(there.transition.to) && there.transition.from.includes(back.transition.to));
  if (pair === undefined) throw new Error('the lifecycle has no two actions that undo each other');
  return {
    there: { action: pair.there.action, to: pair.there.transition.to },
    back: { action: pair.back.action, to: pair.back.transition.to },
    initial: pair.there.transition.from[0] ?? '',
    bodies: Array.from({ length: clients }, (_, index) => [
      JSON.stringify(validBody(contract, pair.there.action, { apiKey: defaultApiKey }, index + 1)),
      JSON.stringify(validBody(contract, pair.back.action, { apiKey: defaultApiKey }, index + 1)),
    ]),
  };
}
