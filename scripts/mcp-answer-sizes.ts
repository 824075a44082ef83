/**
 * `node scripts/mcp-answer-sizes.ts`: how many characters an agent reads from the
 * product-information server: tools/list, each tool on a typical call (the text content, which
 * is the answer's JSON), every action through action_details, prompts/list and each prompt (the
 * messages' text). A prompt argument the server does not have is left out, and a tool drops an
 * argument it does not know, so the same script measures an older commit too. The server runs in
 * this process on the built site, as the tests run it.
 *   node scripts/mcp-answer-sizes.ts [--json]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuiltSite } from '../src/host/built-site.ts';
import { factsOf } from '../src/lib/contract/facts.ts';
import { sampleLanguageNames } from '../src/lib/samples/code-samples.ts';
import { retryingClientLanguages } from '../src/lib/samples/retrying-client-sample.ts';
import { createProductInformationHandler, mcpPath } from '../src/mcp-server/handler.ts';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { loadKnowledge } from '../src/mcp-server/load-knowledge.ts';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const projectDirectory = path.resolve(import.meta.dirname, '..');
ensureBuiltSite(projectDirectory, (line) => console.error(line));
const knowledge = await loadKnowledge(projectDirectory);
const handler = createProductInformationHandler(readServerIdentity(projectDirectory), knowledge);
const model = knowledge.model;
const [firstAction] = model.actions;
// The action the quickstart walks through (the one the contract shows repeated), and a status it accepts.
const { quickstartAction, quickstartFromStates } = factsOf(model);
const acceptingStatus = quickstartFromStates[0] ?? model.lifecycle.states[0];
if (firstAction === undefined) throw new Error('The contract has no action');

let id = 0;
async function rpc(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  id += 1;
  const response = await handler.fetch(
    new Request(new URL(mcpPath, 'http://127.0.0.1'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    }),
  );
  const text = await response.text();
  const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').find((line) => line.startsWith('data:'))?.slice(5) ?? '' : text;
  const message = JSON.parse(data) as { result?: Record<string, unknown>; error?: unknown };
  if (message.result === undefined) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
  return message.result;
}

function textOf(result: Record<string, unknown>): number {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.reduce((sum, item) => sum + (item.text?.length ?? 0), 0);
}

function messagesText(result: Record<string, unknown>): number {
  const messages = (result.messages ?? []) as { content: { text?: string; resource?: { text?: string } } }[];
  return messages.reduce((sum, message) => sum + (message.content.text?.length ?? 0) + (message.content.resource?.text?.length ?? 0), 0);
}

const figures: [string, number][] = [];
const tools = await rpc('tools/list');
figures.push(['tools/list (JSON of the result)', JSON.stringify(tools).length]);
const listed = tools.tools as { name: string; outputSchema?: unknown }[];
figures.push(['tools/list output schemas', listed.reduce((sum, tool) => sum + JSON.stringify(tool.outputSchema ?? {}).length, 0)]);
const [firstLanguage] = sampleLanguageNames;
const typicalCalls: [string, Record<string, unknown>][] = [
  ['api_overview', {}],
  ['action_details', { action: quickstartAction }],
  ['action_details', { action: quickstartAction, errors: true }],
  ['lifecycle', { status: acceptingStatus }],
  ['lifecycle', {}],
  ['code_sample', { action: firstAction.identifier, language: firstLanguage }],
  ['check_request', { body: firstAction.requestExample.value, current_status: acceptingStatus }],
  ['search_docs', { query: 'retry after 429' }],
  ['read_page', { url: knowledge.pages[0]?.url ?? '' }],
  ['product_information', { topic: 'editions' }],
  ['subscription_data', {}],
];
for (const [name, args] of typicalCalls) {
  if (!listed.some((tool) => tool.name === name)) continue;
  const result = await rpc('tools/call', { name, arguments: args });
  figures.push([`${name} ${JSON.stringify(args).slice(0, 60)}${result.isError === true ? ' (refused)' : ''}`, textOf(result)]);
}
for (const action of model.actions) {
  figures.push([`action_details ${action.identifier}`, textOf(await rpc('tools/call', { name: 'action_details', arguments: { action: action.identifier } }))]);
}
const prompts = await rpc('prompts/list');
figures.push(['prompts/list (JSON of the result)', JSON.stringify(prompts).length]);
const promptCalls: [string, Record<string, string>][] = [
  ['integrate_action', { action: firstAction.identifier }],
  ['handle_throttling', {}],
  ...retryingClientLanguages.map((language): [string, Record<string, string>] => ['handle_throttling', { language }]),
  ['check_install', {}],
];
const promptNames = (prompts.prompts as { name: string; arguments?: { name: string }[] }[]).map((prompt) => prompt);
for (const [name, args] of promptCalls) {
  const prompt = promptNames.find((candidate) => candidate.name === name);
  if (prompt === undefined) continue;
  if (Object.keys(args).some((key) => !(prompt.arguments ?? []).some((argument) => argument.name === key))) continue;
  figures.push([`prompt ${name} ${JSON.stringify(args)}`, messagesText(await rpc('prompts/get', { name, arguments: args }))]);
}
await handler.close();
if (values.json) console.log(JSON.stringify(Object.fromEntries(figures), null, 2));
else for (const [what, characters] of figures) console.log(`${String(characters).padStart(7)}  ${what}`);
