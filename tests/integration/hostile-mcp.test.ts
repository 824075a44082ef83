/**
 * Nothing hostile reaches a 5xx on the product-information server either: generated requests
 * (messages nested to 100,000 levels, a request check's body nested past PHP's depth, huge numbers
 * and strings, bytes that are not UTF-8, odd media types, methods, paths and headers) go to its
 * web-standard `fetch` handler in process, and every answer is a JSON-RPC message (over JSON or
 * server-sent events), the server card, or an empty answer of the card's own. In the integration
 * tier because the server answers from the built site. A fixed seed; fast-check prints the
 * counterexample, and a request that takes longer than `hangMs` fails as a hang.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { cardPath, createProductInformationHandler, mcpPath } from '../../src/mcp-server/handler.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';
import { bodyBytes, bodyRecipe, fragment, fragmentText, headerValue, mediaType, method } from '../support/hostile-requests.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
let handler: ReturnType<typeof createProductInformationHandler>;

before(async () => {
  ensureBuiltSite(projectDirectory);
  handler = createProductInformationHandler(readServerIdentity(projectDirectory), await loadKnowledge(projectDirectory));
});
after(async () => {
  await handler.close();
});

const hangMs = 10_000;

/** Mostly what a client sends, sometimes anything: the hostile part is then mostly the body. */
function mostly<T>(usual: T, other: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ weight: 9, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: other });
}

/** Where in a JSON-RPC message a hostile fragment goes: the request check's body first, where the sandbox reads it. */
const place = mostly('check body member', fc.constantFrom('check body', 'tool arguments', 'params', 'id', 'method'));

const message = fc.record({
  kind: fc.constant('message' as const),
  method: mostly('tools/call', fc.constantFrom('tools/list', 'initialize', 'resources/read', 'prompts/get', 'ping', 'server/discover', 'notifications/initialized')),
  tool: mostly('check_request', fc.constantFrom('search_docs', 'action_details', 'read_page', 'no_such_tool')),
  place,
  fragment,
});
type MessageRecipe = typeof message extends fc.Arbitrary<infer T> ? T : never;

function messageText(recipe: MessageRecipe): string {
  const value = fragmentText(recipe.fragment);
  const slot = '\u0000slot';
  const params =
    recipe.method === 'tools/call'
      ? { name: recipe.tool, arguments: recipe.place === 'tool arguments' ? slot : { body: recipe.place === 'check body' ? slot : { action: 'pause_subscription', subscription_id: 1, api_key: '<API_KEY>', note: slot } } }
      : recipe.method === 'initialize'
        ? { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } }
        : {};
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id: recipe.place === 'id' ? slot : 1,
    method: recipe.place === 'method' ? slot : recipe.method,
    params: recipe.place === 'params' ? slot : params,
  });
  // The slot stands for the fragment, spliced in as text: it need not be JSON that JSON.stringify could write.
  return text.replace(JSON.stringify(slot), () => value);
}

const body = fc.oneof({ weight: 4, arbitrary: message }, { weight: 2, arbitrary: bodyRecipe(['jsonrpc', 'id', 'method', 'params']) });

const hostileRequest = fc.record({
  // The methods the Fetch standard forbids never reach a fetch handler: `new Request` refuses them.
  method: mostly('POST', method.filter((name) => !/^(connect|trace|track)$/i.test(name))),
  path: mostly(mcpPath, fc.oneof(fc.constantFrom(cardPath, '/', `${mcpPath}/`, '/.well-known/mcp'), fc.webPath())),
  body,
  mediaType: mostly<string | undefined>('application/json', mediaType),
  accept: mostly<string | undefined>('application/json, text/event-stream', fc.constantFrom(undefined, 'application/json', 'text/event-stream', '*/*', 'text/html')),
  protocolVersion: mostly<string | undefined>('2025-06-18', fc.constantFrom(undefined, '2025-03-26', '2026-07-28', '1999-01-01', '')),
  host: mostly<string | undefined>(undefined, fc.constantFrom('127.0.0.1', 'localhost:3000', 'evil.example', 'a@127.0.0.1', '[::1]:99999', '')),
  origin: mostly<string | undefined>(undefined, fc.oneof(fc.constantFrom('http://localhost:4321', 'null'), headerValue)),
});
type HostileRequest = typeof hostileRequest extends fc.Arbitrary<infer T> ? T : never;

function requestOf(recipe: HostileRequest): Request {
  const headers = new Headers();
  if (recipe.mediaType !== undefined) headers.set('content-type', recipe.mediaType);
  if (recipe.accept !== undefined) headers.set('accept', recipe.accept);
  if (recipe.protocolVersion !== undefined) headers.set('mcp-protocol-version', recipe.protocolVersion);
  if (recipe.origin !== undefined) headers.set('origin', recipe.origin);
  if (recipe.host !== undefined) headers.set('host', recipe.host);
  const bytes = recipe.body.kind === 'message' ? Buffer.from(messageText(recipe.body)) : bodyBytes(recipe.body, {});
  const withBody = recipe.method !== 'GET' && recipe.method !== 'HEAD';
  return new Request(`http://127.0.0.1${recipe.path}`, { method: recipe.method, headers, ...(withBody ? { body: new Uint8Array(bytes) } : {}) });
}

function isJsonRpcMessage(value: unknown): boolean {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return false;
  if ('error' in value) return isRecord(value.error) && Number.isInteger(value.error.code) && typeof value.error.message === 'string';
  return 'result' in value || 'method' in value;
}

/** A request check's answers are the sandbox's: a status under 500 and WordPress's envelope or the success body. */
function checkAnswersProblem(value: unknown): string | undefined {
  const answers = isRecord(value) && isRecord(value.result) && isRecord(value.result.structuredContent) ? value.result.structuredContent.answers : undefined;
  if (!Array.isArray(answers)) return undefined;
  for (const answer of answers) {
    if (!isRecord(answer) || typeof answer.status !== 'number' || answer.status >= 500) return `the request check answered ${JSON.stringify(answer).slice(0, 200)}`;
    if (answer.status >= 400 && !(isRecord(answer.body) && typeof answer.body.code === 'string' && isRecord(answer.body.data) && answer.body.data.status === answer.status)) {
      return `the request check's ${answer.status} is not WordPress's error envelope`;
    }
  }
  return undefined;
}

/** What a crash inside the server says: it must never reach a client, not even as a tool's error. */
const engineFailure = /Maximum call stack size exceeded|RangeError|TypeError|SyntaxError|\.ts:\d+:\d+/;

/** Statuses the card's own path answers without a body. */
const emptyStatuses = [202, 204, 304, 405];

async function answerProblem(request: Request, response: Response): Promise<string | undefined> {
  const text = await response.text();
  if (response.status >= 500) return `status ${response.status}: ${text.slice(0, 200)}`;
  if (text === '') return emptyStatuses.includes(response.status) || request.method === 'HEAD' ? undefined : `an empty ${response.status}`;
  const type = response.headers.get('content-type') ?? '';
  if (new URL(request.url).pathname === cardPath && type.startsWith('application/mcp-server-card+json')) return undefined;
  let messages: unknown[];
  try {
    if (type.startsWith('text/event-stream')) {
      messages = text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice('data:'.length)) as unknown);
    } else if (type.startsWith('application/json')) {
      const parsed = JSON.parse(text) as unknown;
      messages = Array.isArray(parsed) ? parsed : [parsed];
    } else {
      return `Content-Type ${JSON.stringify(type)}: ${text.slice(0, 120)}`;
    }
  } catch {
    return `a body that is not JSON: ${text.slice(0, 120)}`;
  }
  for (const item of messages) {
    if (!isJsonRpcMessage(item)) return `not a JSON-RPC message: ${JSON.stringify(item).slice(0, 200)}`;
    const leaked = engineFailure.exec(JSON.stringify(item));
    if (leaked !== null) return `an engine failure reached the client: ${leaked[0]}`;
    const problem = checkAnswersProblem(item);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

describe('the product-information server under hostile requests', () => {
  test('answers every generated request with a JSON-RPC message or the card, never with a 5xx, and none hangs', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (recipe) => {
        const request = requestOf(recipe);
        const response = await handler.fetch(request.clone());
        const problem = await answerProblem(request, response);
        assert.equal(problem, undefined, problem);
      }),
      { seed: 25, numRuns: 300, timeout: hangMs },
    );
  });

  test('a request check of a body nested past PHP\'s depth shows 400 rest_invalid_json; a message nested 10,000 levels is a parse error', async () => {
    const call = (note: string) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_request', arguments: { body: { action: 'pause_subscription', subscription_id: 1, api_key: '<API_KEY>', note: '\u0000' } } } }).replace('"\\u0000"', note);
    const send = (text: string) =>
      handler.fetch(new Request(`http://127.0.0.1${mcpPath}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: text }));
    const deep = await (await send(call(`${'['.repeat(600)}${']'.repeat(600)}`))).text();
    assert.match(deep, /rest_invalid_json/);
    const deepest = await send(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
    assert.equal(deepest.status, 400);
    const answer = (await deepest.json()) as { error?: { code?: number } };
    assert.ok(isJsonRpcMessage(answer), JSON.stringify(answer));
    assert.equal(answer.error?.code, -32700);
  });
});
