import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toolCatalogue } from './catalogue.ts';
import type { ServerIdentity } from './identity.ts';
import {
  actionDetails,
  actionIdentifiers,
  apiOverview,
  productInformation,
  productTopics,
  readPage,
  searchDocs,
  subscriptionDataLocation,
  type ProductKnowledge,
} from './tools.ts';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

function answer<T extends Record<string, unknown>>(structured: T) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

const looseObject = z.looseObject({});

/**
 * What every per-request server shares: the schemas, built once, and the answers that take no
 * argument, computed once. A stateless server builds a fresh instance for every request, so
 * nothing here may be built per instance that does not need to be.
 */
function buildSchemas(knowledge: ProductKnowledge) {
  return {
    none: z.object({}),
    action: z.object({ action: z.enum(actionIdentifiers(knowledge)).describe('The action identifier') }),
    search: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(20).default(5) }),
    page: z.object({ url: z.string().min(1).max(500) }),
    topic: z.object({ topic: z.enum(productTopics) }),
    question: z.object({ question: z.string().max(500).optional() }),
  };
}

export interface PreparedTools {
  knowledge: ProductKnowledge;
  schemas: ReturnType<typeof buildSchemas>;
  overview: ReturnType<typeof answer>;
}

export function prepareTools(knowledge: ProductKnowledge): PreparedTools {
  return { knowledge, schemas: buildSchemas(knowledge), overview: answer(apiOverview(knowledge)) };
}

/**
 * A fresh server instance with every tool registered, in a fixed order. The tools are plain
 * functions over the knowledge (src/mcp-server/tools.ts); this only names and describes them.
 */
export function createProductServer(identity: ServerIdentity, prepared: PreparedTools): McpServer {
  const { knowledge, schemas } = prepared;
  const server = new McpServer(
    { name: identity.card.name, version: identity.card.version, title: identity.card.title, description: identity.card.description, websiteUrl: identity.card.websiteUrl },
    { supportedProtocolVersions: identity.supportedProtocolVersions, instructions: 'Answers questions about the Subscription Lifecycle Action Service as a product. It holds no subscription data; that stays on each shop’s own site.' },
  );

  server.registerTool(
    'api_overview',
    {
      ...toolCatalogue.api_overview,
      inputSchema: schemas.none,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    () => prepared.overview,
  );

  server.registerTool(
    'action_details',
    {
      ...toolCatalogue.action_details,
      inputSchema: schemas.action,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ action }) => answer(actionDetails(knowledge, action)),
  );

  server.registerTool(
    'search_docs',
    {
      ...toolCatalogue.search_docs,
      inputSchema: schemas.search,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ query, limit }) => answer(searchDocs(knowledge, query, limit)),
  );

  server.registerTool(
    'read_page',
    {
      ...toolCatalogue.read_page,
      inputSchema: schemas.page,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ url }) => answer(readPage(knowledge, url)),
  );

  server.registerTool(
    'product_information',
    {
      ...toolCatalogue.product_information,
      inputSchema: schemas.topic,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ topic }) => answer(productInformation(knowledge, topic)),
  );

  server.registerTool(
    'subscription_data',
    {
      ...toolCatalogue.subscription_data,
      inputSchema: schemas.question,
      outputSchema: looseObject,
      annotations: readOnly,
    },
    () => answer(subscriptionDataLocation(knowledge)),
  );

  return server;
}
