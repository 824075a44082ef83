import { z } from 'zod';
import type { ProductKnowledge, RequestCheck } from '../knowledge.ts';
import { defineAnswer, defineTool, jsonObject, jsonValue, nonEmpty, readOnly } from './tool.ts';

export const checkRequestTool = defineTool({
  name: 'check_request',
  title: 'Check a request body',
  description:
    'What a shop would answer to this JSON body before you send it: the 400 with the fields at fault, the 401, the 409 with the allowed actions, or the 200 with the new status. Computed by the sandbox; nothing is sent.',
  annotations: readOnly,
  // The request check runs the sandbox's stages (on Node over SQLite, on Workers over the memory
  // store); knowledge built without one does not list the tool rather than list it failing.
  answer: (knowledge) => (knowledge.checkRequest === undefined ? undefined : checkRequestAnswer(knowledge, knowledge.checkRequest)),
});

/**
 * What a shop would answer to a request body, before it is sent: the sandbox's own stages run it
 * (src/mcp-server/request-check.ts), for the status given or for every status.
 */
function checkRequestAnswer({ model }: ProductKnowledge, checkRequest: RequestCheck) {
  const { lifecycle, envelope } = model;
  return defineAnswer({
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
