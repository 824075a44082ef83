import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
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

const looseObject = z.object({}).passthrough();

/**
 * A fresh server instance with every tool registered, in a fixed order. The tools are plain
 * functions over the knowledge (src/mcp-server/tools.ts); this only names and describes them.
 */
export function createProductServer(identity: ServerIdentity, knowledge: ProductKnowledge): McpServer {
  const server = new McpServer(
    { name: identity.card.name, version: identity.card.version, title: identity.card.title, description: identity.card.description, websiteUrl: identity.card.websiteUrl },
    { supportedProtocolVersions: identity.supportedProtocolVersions, instructions: 'Answers questions about the Subscription Lifecycle Action Service as a product. It holds no subscription data; that stays on each shop’s own site.' },
  );

  server.registerTool(
    'api_overview',
    {
      title: 'API overview',
      description: 'The one endpoint and its method, where the API key travels, every action in one line, the errors, the 429 and Retry-After rule, the courtesy pace and versioning.',
      inputSchema: z.object({}),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    () => answer(apiOverview(knowledge)),
  );

  server.registerTool(
    'action_details',
    {
      title: 'One action in detail',
      description: 'The fields of one action, the statuses it accepts and leads to, its errors, its request example and the link to its reference page.',
      inputSchema: z.object({ action: z.enum(actionIdentifiers(knowledge)).describe('The action identifier') }),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ action }) => answer(actionDetails(knowledge, action)),
  );

  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      description: 'Finds documentation pages (guides and reference) by their words: titles, absolute URLs and short snippets.',
      inputSchema: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(20).default(5) }),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ query, limit }) => answer(searchDocs(knowledge, query, limit)),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a documentation page',
      description: 'One documentation page as Markdown, by its URL or path (for example /quickstart/).',
      inputSchema: z.object({ url: z.string().min(1).max(500) }),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ url }) => answer(readPage(knowledge, url)),
  );

  server.registerTool(
    'product_information',
    {
      title: 'Product information',
      description: 'Editions (free versus paid), pricing, supported payment gateways and features. Unpublished values say so and where they will appear.',
      inputSchema: z.object({ topic: z.enum(productTopics) }),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    ({ topic }) => answer(productInformation(knowledge, topic)),
  );

  server.registerTool(
    'subscription_data',
    {
      title: 'Where subscription data lives',
      description: 'Call this for any question about a particular subscription, order or customer: this server holds no such data, and the answer says where it is reached instead.',
      inputSchema: z.object({ question: z.string().max(500).optional() }),
      outputSchema: looseObject,
      annotations: readOnly,
    },
    () => answer(subscriptionDataLocation(knowledge)),
  );

  return server;
}
