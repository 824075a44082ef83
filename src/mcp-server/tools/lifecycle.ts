import { z } from 'zod';
import { allowedActions, outcomeOf } from '../../lib/contract/lifecycle.ts';
import { guidePaths } from '../../lib/site/navigation.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, nonEmpty, readOnly } from './tool.ts';

export const lifecycleTool = defineTool({
  name: 'lifecycle',
  title: 'What a status allows',
  description:
    'From a subscription status (for example a cancelled or paused subscription): which actions change it and to which statuses, which answer "unchanged", and which the shop refuses. Leave the status out for every status.',
  annotations: readOnly,
  answer: lifecycleAnswer,
});

/**
 * The lifecycle answered directly: from a status, which actions change it and to what, and
 * where the action with a chosen target may take it. Computed with the same `outcomeOf` the
 * sandbox applies, so the answer is what a shop would do.
 */
function lifecycleAnswer({ model }: ProductKnowledge) {
  const { lifecycle } = model;
  const statusAnswer = (status: string) => {
    const actions = allowedActions(lifecycle, status).flatMap((action) => {
      const transition = lifecycle.transitions.find((candidate) => candidate.action === action);
      if (transition === undefined) return [];
      const to = transition.kind === 'fixed' ? [transition.to] : lifecycle.states.filter((target) => outcomeOf(transition, status, target).kind === 'changed');
      return [{ action, to, ...(transition.kind === 'chosen' ? { statusField: transition.field } : {}) }];
    });
    // An action whose target is chosen answers unchanged only when it names the current status, and
    // is refused for any other target from a status it does not accept: the data says which.
    const unchanged = lifecycle.transitions.flatMap((transition): (string | { action: string; when: string })[] => {
      if (transition.kind === 'fixed') return outcomeOf(transition, status).kind === 'unchanged' ? [transition.action] : [];
      return outcomeOf(transition, status, status).kind === 'unchanged' ? [{ action: transition.action, when: `${transition.field}=${status}` }] : [];
    });
    const refused = lifecycle.transitions.flatMap((transition): (string | { action: string; unless: string })[] => {
      if (actions.some((allowed) => allowed.action === transition.action)) return [];
      if (transition.kind === 'fixed') return outcomeOf(transition, status).kind === 'refused' ? [transition.action] : [];
      return [{ action: transition.action, unless: `${transition.field}=${status}` }];
    });
    return { status, final: lifecycle.finalStates.includes(status), actions, answersUnchanged: unchanged, refused };
  };
  return defineAnswer({
    inputSchema: z.object({ status: z.enum(nonEmpty(lifecycle.states, 'status')).optional().describe('A subscription status; leave out for every status') }),
    outputSchema: z.object({
      states: z.array(z.string()),
      finalStates: z.array(z.string()),
      byStatus: z.array(
        z.object({
          status: z.string(),
          final: z.boolean(),
          actions: z
            .array(z.object({ action: z.string(), to: z.array(z.string()), statusField: z.string().optional() }))
            .describe('The actions that change a subscription in this status, and the statuses each can lead to'),
          answersUnchanged: z
            .array(z.union([z.string(), z.object({ action: z.string(), when: z.string() })]))
            .describe('Actions that succeed with changed: false, because the subscription is already where they lead; "when" names the request that does'),
          refused: z
            .array(z.union([z.string(), z.object({ action: z.string(), unless: z.string() })]))
            .describe('Actions the shop refuses with the conflict error from this status; "unless" names the request that is not refused'),
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
