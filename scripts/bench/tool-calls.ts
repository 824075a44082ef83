/**
 * The tool calls the MCP benches make, read by scripts/bench-mcp-worker.ts (CPU in workerd) and
 * scripts/bench-mcp-allocation.ts (memory allocated in Node), so that both measure the same calls:
 * every tool on the arguments an agent gives it, and a call's request as the SDK's v2 client
 * sends it in each protocol era.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { llmsFullSections } from '../../src/lib/site/llms-txt.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import type { KnowledgeSource } from '../../src/mcp-server/knowledge.ts';

export type Era = 'legacy' | 'modern';

/** The eras `--era` names (`legacy`, the default, `modern` or `both`); anything else exits 2 with the usage. */
export function erasOption(usage: string, given: string | undefined): Era[] {
  const choices: Record<string, Era[]> = { legacy: ['legacy'], modern: ['modern'], both: ['legacy', 'modern'] };
  const eras = choices[given ?? 'legacy'];
  if (eras !== undefined) return eras;
  console.error(`--era takes legacy, modern or both, not ${JSON.stringify(given)}.\n${usage}`);
  process.exit(2);
}

/** A tool as tools/list describes it: what the benches read of its input schema is its enumerations. */
export interface ListedTool {
  name: string;
  inputSchema: { properties?: Record<string, { enum?: string[] }> };
}

/**
 * Every tool on the arguments an agent gives it: each action, status, topic, language, page and
 * evaluation question. A tool the server lists without arguments here is refused by name.
 */
export function toolCallArguments(projectDirectory: string, source: KnowledgeSource, tools: readonly ListedTool[]): Record<string, Record<string, unknown>[]> {
  const model = readReferenceModel(source.document);
  const pages = llmsFullSections(source.llmsFullTxt);
  const queries = (JSON.parse(readFileSync(path.join(projectDirectory, 'src/mcp-server/evaluation/results.json'), 'utf8')) as { results: { question: string }[] }).results.map((result) => result.question);
  const { envelope, lifecycle } = model;
  const enumOf = (tool: string, property: string) => tools.find((candidate) => candidate.name === tool)?.inputSchema.properties?.[property]?.enum ?? [];
  const languages = enumOf('code_sample', 'language');
  const calls: Record<string, Record<string, unknown>[]> = {
    api_overview: [{}],
    action_details: model.actions.flatMap((action) => [{ action: action.identifier }, { action: action.identifier, errors: true }]),
    lifecycle: [{}, ...lifecycle.states.map((status) => ({ status }))],
    code_sample: model.actions.flatMap((action) => languages.map((language) => ({ action: action.identifier, language }))),
    check_request: model.actions.flatMap((action) => [
      { body: { [envelope.selector]: action.identifier, [envelope.subject]: 7, [envelope.credential]: 'placeholder-key' } },
      { body: { [envelope.selector]: action.identifier, [envelope.subject]: 7, [envelope.credential]: 'placeholder-key' }, current_status: lifecycle.states[0] },
    ]),
    search_docs: queries.map((query) => ({ query })),
    read_page: pages.map((page) => ({ url: page.url })),
    product_information: enumOf('product_information', 'topic').map((topic) => ({ topic })),
    subscription_data: [{}, { question: 'Can I list the subscriptions of a customer?' }],
  };
  const unknown = tools.map((tool) => tool.name).filter((name) => calls[name] === undefined);
  if (unknown.length > 0) throw new Error(`No arguments for ${unknown.join(', ')}: add them to scripts/bench/tool-calls.ts`);
  return calls;
}

/**
 * The revisions a client of each era names, from the card: the newest it lists is the 2026-07-28
 * era's, the newest of the rest the 2025 era's.
 */
export function eraRevisions(projectDirectory: string): Record<Era, string> {
  const cardVersions = [...readServerIdentity(projectDirectory).supportedProtocolVersions].sort().reverse();
  return { modern: cardVersions[0] ?? '', legacy: cardVersions[1] ?? '' };
}

/** A tools/call's headers and body as the SDK's v2 client sends them in each era. */
export function toolCallRequest(revisions: Record<Era, string>, era: Era, id: number, name: string, args: Record<string, unknown>): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': revisions[era] };
  if (era === 'legacy') return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) };
  const envelope = { 'io.modelcontextprotocol/protocolVersion': revisions.modern, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return { headers: { ...headers, 'Mcp-Method': 'tools/call', 'Mcp-Name': name }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope } }) };
}

/** A tools/list request's body, and the tools its answer lists (the answer comes as one server-sent event or as JSON, as the client's Accept allows). */
export const toolsListBody = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'tools/list' });
export function listedTools(answer: string): ListedTool[] {
  return (JSON.parse(/^data: (.*)$/m.exec(answer)?.[1] ?? answer) as { result: { tools: ListedTool[] } }).result.tools;
}
