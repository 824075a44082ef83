import { z } from 'zod';
import type { ReferenceModel } from '../../lib/contract/model.ts';
import { guidePaths } from '../../lib/site/navigation.ts';
import { notYetPublished, type ProductFacts } from '../../lib/product-facts.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, readOnly } from './tool.ts';

export const productTopics = ['editions', 'pricing', 'payment_gateways', 'features'] as const;
export type ProductTopic = (typeof productTopics)[number];

const productPageUrl = docsAddress(guidePaths.product);

function published<T>(value: T | typeof notYetPublished) {
  return value === notYetPublished
    ? { published: false as const, note: `Not yet published by the publisher. When it is, it appears at ${productPageUrl}.` }
    : { published: true as const, value };
}

/** A product topic from the product facts (and, for features, the contract). */
export function productInformation({ model, facts }: { model: ReferenceModel; facts: ProductFacts }, topic: ProductTopic) {
  const source = `the publisher's product facts, shown at ${productPageUrl}`;
  switch (topic) {
    case 'editions':
      return {
        topic,
        summary: 'There is a free edition and a paid edition.',
        editions: Object.entries(facts.editions).map(([id, edition]) => ({ id, name: edition.name, includes: published(edition.includes) })),
        source,
      };
    case 'pricing':
      return { topic, pricing: published(facts.pricing), source };
    case 'payment_gateways':
      return { topic, paymentGateways: published(facts.paymentGateways), source };
    case 'features':
      return {
        topic,
        apiFeatures: [
          `One endpoint, ${model.endpoint.method} ${model.endpoint.urlTemplate}, on each shop's own site`,
          ...model.actions.map((action) => `${action.identifier}: ${action.title}`),
        ],
        otherFeatures: published(facts.features),
        source,
      };
  }
}

const unpublishedOr = <T extends z.ZodType>(value: T) =>
  z.object({ published: z.boolean(), note: z.string().optional().describe('Present while the value is not yet published'), value: value.optional() });

export const productInformationTool = defineTool({
  name: 'product_information',
  title: 'Product information',
  description:
    'Editions (free versus paid), pricing, supported payment gateways and features. Unpublished values say so and where they will appear.',
  annotations: readOnly,
  answer: productInformationAnswer,
});

function productInformationAnswer(knowledge: ProductKnowledge) {
  return defineAnswer({
    inputSchema: z.object({ topic: z.enum(productTopics) }),
    outputSchema: z.object({
      topic: z.enum(productTopics),
      summary: z.string().optional(),
      editions: z.array(z.object({ id: z.string(), name: z.string(), includes: unpublishedOr(z.array(z.string())) })).optional(),
      pricing: unpublishedOr(z.array(z.object({ edition: z.string(), price: z.string(), period: z.string().optional() }))).optional(),
      paymentGateways: unpublishedOr(z.array(z.string())).optional(),
      apiFeatures: z.array(z.string()).optional(),
      otherFeatures: unpublishedOr(z.array(z.string())).optional(),
      source: z.string(),
    }),
    run: ({ topic }) => productInformation(knowledge, topic),
  });
}
