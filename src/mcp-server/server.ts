import { McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { tools, type ToolName } from './catalogue.ts';
import type { ServerIdentity } from './identity.ts';
import type { ProductKnowledge } from './knowledge.ts';
import { promptDefinitions } from './prompts.ts';
import { withJsonSchemaOnce } from './json-schema-once.ts';
import { resourceEntries, type ResourceEntry } from './resources.ts';
import { ToolRefusal, type ToolAnnotations } from './tools/tool.ts';

function answer(structured: Record<string, unknown>) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured };
}

function refusal(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true };
}

/** A tool as the server registers it: its schemas with their JSON Schema converted once. */
interface PreparedTool {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  run(input: Record<string, unknown>): Record<string, unknown>;
  inputSchema: StandardSchemaWithJSON<Record<string, unknown>>;
  outputSchema: StandardSchemaWithJSON<Record<string, unknown>>;
}

/**
 * What every per-request server shares: the tools with their schemas, the resources' texts and
 * the prompts, built once. A stateless server builds a fresh instance for every request, so
 * nothing is built per instance that does not need to be.
 */
export interface PreparedServer {
  instructions: string;
  tools: PreparedTool[];
  resources: ResourceEntry[];
  prompts: ReturnType<typeof promptDefinitions>;
}

export function prepareServer(knowledge: ProductKnowledge): PreparedServer {
  return {
    instructions: [
      `Answers questions about the Subscription Lifecycle Action Service as a product and as an API: its pages, its contract, its tested code samples${knowledge.checkRequest === undefined ? '' : ', and what a shop would answer to a request'}.`,
      'It holds no subscription data; that stays on each shop’s own site.',
    ].join(' '),
    tools: tools.flatMap(({ answer, ...tool }) => {
      const answered = answer(knowledge);
      if (answered === undefined) return [];
      return [{ ...tool, run: answered.run as PreparedTool['run'], inputSchema: withJsonSchemaOnce(answered.inputSchema), outputSchema: withJsonSchemaOnce(answered.outputSchema, true) }];
    }),
    resources: resourceEntries(knowledge),
    prompts: promptDefinitions(knowledge),
  };
}

/** The first line of whatever a tool threw, for the agent; a stack never leaves the process. */
function messageOf(error: unknown): string {
  return error instanceof ToolRefusal ? error.message : 'The tool could not answer this input.';
}

/** What a server instance registers: a request for one kind of feature needs only that kind. */
export interface ServerFeatures {
  /** Every tool, none, or only the one a `tools/call` names. */
  tools: boolean | string;
  resources: boolean;
  prompts: boolean;
}

const everyFeature: ServerFeatures = { tools: true, resources: true, prompts: true };

/**
 * The features a request body can reach: a `tools/call` only the tool it names (every tool when it
 * names none of ours, so that the SDK answers as for any unknown tool), `tools/…` only the tools,
 * `resources/…` only the resources, `prompts/…` only the prompts; anything else (initialize,
 * server/discover, a batch, a body the SDK will refuse) all of them. The capabilities stay
 * declared in full either way.
 */
export function featuresFor(body: unknown, prepared: PreparedServer): ServerFeatures {
  const message = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { method?: unknown; params?: { name?: unknown } }) : undefined;
  const method = message?.method;
  if (typeof method !== 'string') return everyFeature;
  if (method === 'tools/call') {
    const name = message?.params?.name;
    const known = prepared.tools.some((tool) => tool.name === name);
    return { tools: known && typeof name === 'string' ? name : true, resources: false, prompts: false };
  }
  if (method.startsWith('tools/')) return { tools: true, resources: false, prompts: false };
  if (method.startsWith('resources/')) return { tools: false, resources: true, prompts: false };
  if (method.startsWith('prompts/')) return { tools: false, resources: false, prompts: true };
  return everyFeature;
}

/**
 * A fresh server instance with the tools, resources and prompts `features` asks for (by default
 * every one) registered, in a fixed order. Each tool is whole in its own file (src/mcp-server/tools/);
 * this only registers what it says of itself. Nothing changes a list while the process runs, so no list is announced as changing.
 */
export function createProductServer(identity: ServerIdentity, prepared: PreparedServer, features: ServerFeatures = everyFeature): McpServer {
  const server = new McpServer(
    { name: identity.card.name, version: identity.card.version, title: identity.card.title, description: identity.card.description, websiteUrl: identity.card.websiteUrl },
    {
      supportedProtocolVersions: identity.supportedProtocolVersions,
      instructions: prepared.instructions,
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
    },
  );
  for (const tool of prepared.tools) {
    if (features.tools === false || (typeof features.tools === 'string' && features.tools !== tool.name)) continue;
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      (input: Record<string, unknown>) => {
        try {
          return answer(tool.run(input));
        } catch (error) {
          return refusal(messageOf(error));
        }
      },
    );
  }
  for (const resource of features.resources ? prepared.resources : []) {
    server.registerResource(resource.name, resource.uri, { title: resource.title, description: resource.description, mimeType: resource.mimeType }, () => ({
      contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text }],
    }));
  }
  for (const [name, prompt] of features.prompts ? Object.entries(prepared.prompts) : []) {
    // A prompt without arguments is registered without a schema: the SDK's schema handling is the
    // larger part of building a server instance, which a stateless server does on every request.
    if (Object.keys(prompt.argsSchema.shape).length === 0) {
      server.registerPrompt(name, { title: prompt.title, description: prompt.description }, () => ({ messages: prompt.messages({}) }));
    } else {
      server.registerPrompt(name, { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema }, (args: Record<string, unknown>) => ({
        messages: prompt.messages(args),
      }));
    }
  }
  return server;
}
