import { z } from 'zod';
import { allowedActions, outcomeOf } from '../../lib/contract/lifecycle.ts';
import { guidePaths } from '../../lib/site/navigation.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineTool, docsAddress, nonEmpty } from './tool.ts';

/**
 * The lifecycle answered directly: from a status, which actions change it and to what, and
 * where the action with a chosen target may take it. Computed with the same `outcomeOf` the
 * sandbox applies, so the answer is what a shop would do.
 */
export function lifecycleTool({ model }: ProductKnowledge) {
  const { lifecycle } = model;
  const statusAnswer = (status: string) => {
    const actions = allowedActions(lifecycle, status).flatMap((action) => {
      const transition = lifecycle.transitions.find((candidate) => candidate.action === action);
      if (transition === undefined) return [];
      const to =
        transition.kind === 'fixed'
          ? [transition.to]
          : lifecycle.states.filter((target) => outcomeOf(transition, status, target).kind === 'changed');
      return [{ action, to, ...(transition.kind === 'chosen' ? { statusField: transition.field } : {}) }];
    });
    const fixedUnchanged = lifecycle.transitions
      .filter((transition) => transition.kind === 'fixed' && outcomeOf(transition, status).kind === 'unchanged')
      .map((transition) => transition.action);
    // An action whose target is chosen answers unchanged when the chosen status is the current one.
    const unchanged = lifecycle.transitions
      .filter((transition) => fixedUnchanged.includes(transition.action) || (transition.kind === 'chosen' && outcomeOf(transition, status, status).kind === 'unchanged'))
      .map((transition) => transition.action);
    const refused = lifecycle.transitions.map((transition) => transition.action).filter((action) => !actions.some((allowed) => allowed.action === action) && !fixedUnchanged.includes(action));
    return { status, final: lifecycle.finalStates.includes(status), actions, answersUnchanged: unchanged, refused };
  };
  return defineTool({
    inputSchema: z.object({
      status: z.enum(nonEmpty(lifecycle.states, 'status')).optional().describe('A subscription status; leave out for every status'),
    }),
    outputSchema: z.object({
      states: z.array(z.string()),
      finalStates: z.array(z.string()),
      byStatus: z.array(
        z.object({
          status: z.string(),
          final: z.boolean(),
          actions: z.array(z.object({ action: z.string(), to: z.array(z.string()), statusField: z.string().optional() })).describe('The actions that change a subscription in this status, and the statuses each can lead to'),
          answersUnchanged: z.array(z.string()).describe('Actions that succeed with changed: false, because the subscription is already where they lead (an action whose target is chosen, when it names this status)'),
          refused: z.array(z.string()).describe('Actions the shop refuses with the conflict error from this status (an action whose target is chosen, for every other target)'),
        }),
      ),
      guide: z.string(),
    }),
    run: ({ status }) => ({
      states: lifecycle.states,
      finalStates: lifecycle.finalStates,
      byStatus: (status === undefined ? lifecycle.states : [status]).map(statusAnswer),
      guide: docsAddress(guidePaths.states),
    }),
  });
}
