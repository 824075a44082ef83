import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startProductInformationServer, type RunningServer } from '../../src/mcp-server/http.ts';
import { siteConfig } from '../../src/site-config.ts';
import type { RuleCheck, SpecContext } from './rule-check.ts';

/** What the checks learn from one conversation with the running server, over real HTTP. */
interface ServerObservation {
  server: RunningServer;
  tools: { name: string; inputSchema: { properties?: Record<string, { enum?: unknown[] }> }; annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean } }[];
  subscriptionAnswer: Record<string, unknown>;
  plainPost: Response;
}

let observing: Promise<ServerObservation> | undefined;

/** Starts the server of this project once and asks it what every check needs, with no credentials. */
function observeServer(context: SpecContext): Promise<ServerObservation> {
  observing ??= (async () => {
    const server = await startProductInformationServer({ port: 0, projectDirectory: context.projectDirectory });
    const client = new Client({ name: 'rule-map', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      // The path of {mcp_url}, on the local server: the transport is Streamable HTTP.
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: 'subscription_data', arguments: { question: 'What is the status of subscription 4711?' } });
      const plainPost = await fetch(server.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rule-map', version: '1' } } }),
      });
      return { server, tools: tools as ServerObservation['tools'], subscriptionAnswer: (result.structuredContent ?? {}) as Record<string, unknown>, plainPost };
    } finally {
      await client.close();
    }
  })();
  return observing;
}

export async function closeObservedServer(): Promise<void> {
  if (observing !== undefined) await (await observing).server.close().catch(() => {});
}

/** The product topics of the specification, as the product tool names them. */
const productTopics = ['editions', 'pricing', 'payment_gateways', 'features'];
const subscriptionInputs = /subscription|order|customer|api_key|key|token/i;

export const serverRuleChecks: RuleCheck[] = [
  {
    rule: '1.5a',
    name: `the server answers MCP over Streamable HTTP at the path of ${siteConfig.mcpUrl}`,
    async run(context) {
      const { server } = await observeServer(context);
      const path = new URL(server.url).pathname;
      return path === new URL(siteConfig.mcpUrl).pathname ? [] : [`the server answers at ${path}, not at the path of ${siteConfig.mcpUrl}`];
    },
  },
  {
    rule: '1.5c',
    name: 'the server’s product topics are the specification’s (editions, pricing, payment gateways, features) beside an API overview',
    async run(context) {
      const { tools } = await observeServer(context);
      const problems: string[] = [];
      const product = tools.find((tool) => tool.name === 'product_information');
      const topics = product?.inputSchema.properties?.topic?.enum;
      if (JSON.stringify(topics) !== JSON.stringify(productTopics)) problems.push(`the product tool’s topics are ${JSON.stringify(topics)}, not ${productTopics.join(', ')}`);
      if (!tools.some((tool) => tool.name === 'api_overview')) problems.push('the server has no API overview tool');
      return problems;
    },
  },
  {
    rule: '1.5d',
    name: 'the server answers a client that sends no credentials, and never asks for any',
    async run(context) {
      const { plainPost } = await observeServer(context);
      const problems: string[] = [];
      if (plainPost.status !== 200) problems.push(`an initialize without credentials got ${plainPost.status}`);
      if (plainPost.headers.get('www-authenticate') !== null) problems.push('the server answers with WWW-Authenticate');
      return problems;
    },
  },
  {
    rule: '5.8',
    name: 'the product-information server lists and calls its tools for a client without credentials',
    async run(context) {
      const { tools } = await observeServer(context);
      return tools.length > 0 ? [] : ['the server listed no tools to a client without credentials'];
    },
  },
  {
    rule: '1.5e',
    name: 'asked about a subscription, the server says it holds no subscription data and points at the endpoint; no tool takes a subscription, order, customer or key',
    async run(context) {
      const { tools, subscriptionAnswer } = await observeServer(context);
      const problems: string[] = [];
      if (subscriptionAnswer.holdsSubscriptionData !== false) problems.push('the server does not say it holds no subscription data');
      if (!/wp-json\/service\/v1\/action/.test(String(subscriptionAnswer.endpoint))) problems.push('the server does not point at the endpoint on the operator’s site');
      for (const tool of tools) {
        for (const input of Object.keys(tool.inputSchema.properties ?? {})) {
          if (subscriptionInputs.test(input)) problems.push(`the tool ${tool.name} takes an input "${input}"`);
        }
      }
      return problems;
    },
  },
  {
    rule: '4.2',
    name: 'every tool of the server is read-only and not destructive',
    async run(context) {
      const { tools } = await observeServer(context);
      return tools
        .filter((tool) => tool.annotations?.readOnlyHint !== true || tool.annotations.destructiveHint === true)
        .map((tool) => `the tool ${tool.name} is not marked read-only`);
    },
  },
];
