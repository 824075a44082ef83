import { z } from 'zod';
import type { ProductKnowledge, RequestCheck } from '../knowledge.ts';
import { defineTool, jsonObject, jsonValue, nonEmpty } from './tool.ts';

/**
 * What a shop would answer to a request body, before it is sent: the sandbox's own stages run it
 * (src/mcp-server/request-check.ts), for the status given or for every status.
 */
export function checkRequestTool({ model }: ProductKnowledge, checkRequest: RequestCheck) {
  const { lifecycle, envelope } = model;
  return defineTool({
    inputSchema: z.object({
      body: jsonObject.describe(`The JSON body you would send, with "${envelope.selector}", "${envelope.subject}" and "${envelope.credential}" (any placeholder key)`),
      current_status: z.enum(nonEmpty(lifecycle.states, 'status')).optional().describe('The status the subscription has now; leave out to see the answer from every status'),
      site_accepts_credential: z.boolean().default(true).describe('Whether the site takes the credential in the body; false shows what a wrong one gets'),
    }),
    outputSchema: z.object({
      answers: z.array(z.object({ currentStatus: z.string(), status: z.number().int(), body: jsonValue })),
      sameForEveryStatus: z.boolean().describe('True when the status does not matter: the body is refused before the subscription is read'),
      note: z.string(),
    }),
    run: ({ body, current_status: currentStatus, site_accepts_credential: keyAccepted }) => {
      const answers = (currentStatus === undefined ? lifecycle.states : [currentStatus]).map((status) => ({ currentStatus: status, ...checkRequest(body, status, keyAccepted) })).map((answer) => ({ ...answer, body: answer.body as z.core.util.JSONType }));
      const first = answers[0];
      const same = first !== undefined && answers.every((answer) => answer.status === first.status && JSON.stringify(answer.body) === JSON.stringify(first.body));
      return {
        answers: same && first !== undefined && currentStatus === undefined ? [{ ...first, currentStatus: 'any' }] : answers,
        sameForEveryStatus: currentStatus === undefined && same,
        note: 'Computed by the sandbox, which answers as the plugin does; nothing was sent to any shop and nothing changed.',
      };
    },
  });
}
