import { z } from 'zod';
import { factsOf } from '../../lib/contract/facts.ts';
import { endpointPagePath, guidePaths } from '../../lib/site/navigation.ts';
import { refusalDetails } from '../../lib/contract/refusal-details.ts';
import { listInWords } from '../../lib/prose.ts';
import { endpointSections } from '../../lib/site/reference-pages.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, readOnly } from './tool.ts';

export const subscriptionDataTool = defineTool({
  name: 'subscription_data',
  title: 'Where subscription data lives',
  description:
    'Call this for any question about a particular subscription, order or customer (its status, its history): this server holds no such data, the API has no read, list or webhook, and the answer says what to do instead.',
  annotations: readOnly,
  answer: subscriptionDataAnswer,
});

/**
 * The answer to any question about a subscription, an order or a customer: this server holds
 * none of that, and the API itself cannot read, list or announce it. Said plainly, so an agent
 * does not invent a read operation.
 */
function subscriptionDataAnswer({ model }: ProductKnowledge) {
  const facts = factsOf(model);
  const refusal = refusalDetails(model.responses, model.lifecycle.states);
  const statusFields = model.resultFields
    .filter((field) => field.constraints.some((constraint) => constraint.keyword === 'enum' && constraint.values?.every((value) => typeof value === 'string' && model.lifecycle.states.includes(value))))
    .map((field) => field.name);
  const answer = {
    holdsSubscriptionData: false,
    answer:
      'This product-information server holds no subscription, order or customer data and cannot look any up. That data stays on each operator’s own site.',
    apiHasRead: false,
    apiHasList: false,
    apiHasWebhooks: false,
    notInTheApi: `The API has one operation, ${facts.method} ${facts.endpointUrlTemplate}, and it only performs actions: there is no read operation (nothing fetches a subscription or its status), no list or search of subscriptions, and no events or webhooks.`,
    insteadDo: [
      `To see a subscription's status, look in the shop's WordPress administration area, or ask the shop's operator.`,
      `A status comes back only in answers to an action: ${listInWords(statusFields.map((name) => `\`${name}\``), 'and')} of a success, and \`${refusal.detailsMember}.${refusal.currentStatus}\` of a refusal, with \`${refusal.detailsMember}.${refusal.allowedActions}\` listing what that status allows.`,
      `To change a subscription, send an action to the shop's own endpoint with that site's key in \`${facts.credentialField}\`; the subscription's ID (\`${model.envelope.subject}\`) comes from the shop.`,
    ],
    endpoint: `${facts.method} ${facts.endpointUrlTemplate}`,
    credential: `the ${facts.credentialField} field of the JSON body, a key the site owner generates`,
    whatTheApiDoesNotHave: docsAddress(`${endpointPagePath}#${endpointSections.notInThisApi.slug}`),
    guide: docsAddress(guidePaths.quickstart),
  };
  return defineAnswer({
    inputSchema: z.object({ question: z.string().max(500).optional() }),
    outputSchema: z.object({
      holdsSubscriptionData: z.boolean(),
      answer: z.string(),
      apiHasRead: z.boolean(),
      apiHasList: z.boolean(),
      apiHasWebhooks: z.boolean(),
      notInTheApi: z.string(),
      insteadDo: z.array(z.string()),
      endpoint: z.string(),
      credential: z.string(),
      whatTheApiDoesNotHave: z.string(),
      guide: z.string(),
    }),
    run: () => answer,
  });
}
