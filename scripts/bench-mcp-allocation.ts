/**
 * `npm run bench:mcp-allocation`: the memory each tool of the product-information server allocates
 * a call, beside what the bare SDK allocates for a tool call answering as many characters, in the
 * same run. How often a garbage collection lands in a tool's calls (what pushes a call over the
 * 5 ms of issue #43) follows how much the tool allocates.
 *
 * The handler is built as `npm run mcp` builds it (src/mcp-server/http.ts: the knowledge loaded
 * from the project and dist/, the request check included) and called in this process, without
 * HTTP; the bare SDK is scripts/bench/bare-mcp-worker.ts, bundled for Node with its answer's text
 * read from a global, so that it answers each tool's number of characters in turn. The calls are
 * those of `node scripts/bench-mcp-worker.ts` (scripts/bench/tool-calls.ts). Every call is made
 * once uncounted to warm up; then each tool's calls run under V8's sampling heap profiler
 * (`HeapProfiler.startSampling` through the inspector), which counts the objects collected since,
 * by the young generation's collections and the old one's alike, so that a figure is all a call
 * allocated, not what it left behind. A figure is the profiler's estimate from samples taken about
 * every 128 bytes.
 *   npm run bench:mcp-allocation -- [--calls N] [--era legacy|modern|both]
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProductInformationHandler, mcpPath } from '../src/mcp-server/http.ts';
import { readServerIdentity } from '../src/mcp-server/identity.ts';
import { loadKnowledge, readKnowledgeSource } from '../src/mcp-server/load-knowledge.ts';
import { bundleBareSdk } from './bench/bare-sdk-bundle.ts';
import { eraRevisions, erasOption, listedTools, toolCallArguments, toolCallRequest, toolsListBody, type Era } from './bench/tool-calls.ts';
import { scriptArguments, wholeNumberOption } from './script-options.ts';

const usage = 'Usage: npm run bench:mcp-allocation -- [--calls N] [--era legacy|modern|both]';
const { values } = scriptArguments(usage, { calls: { type: 'string' }, era: { type: 'string' } });
const eras = erasOption(usage, values.era);
// Each tool at least this many calls, its arguments cycled: a tool of one set of arguments is otherwise judged by one call.
const minimumCalls = wholeNumberOption(usage, 'calls', values.calls, 200, 1);
const root = path.resolve(import.meta.dirname, '..');

const source = await readKnowledgeSource(root);
const identity = readServerIdentity(root);
const ours = createProductInformationHandler(identity, await loadKnowledge(root));

/** The bare SDK's handler, its answer read from `globalThis.benchAnswerText` when a call comes. */
const bareBundle = await bundleBareSdk(root, 'node', 'globalThis.benchAnswerText');
const bare = (await import(pathToFileURL(bareBundle).href)) as { default: { fetch(request: Request): Promise<Response> } };
const answerHolder = globalThis as { benchAnswerText?: string };

type Fetch = (request: Request) => Promise<Response>;
const revisions = eraRevisions(root);
const url = `http://127.0.0.1${mcpPath}`;
let requestId = 0;

/** One tools/call through a handler; the characters of its answer. */
async function call(fetchAnswer: Fetch, era: Era, name: string, args: Record<string, unknown>): Promise<number> {
  const { headers, body } = toolCallRequest(revisions, era, ++requestId, name, args);
  const response = await fetchAnswer(new Request(url, { method: 'POST', headers: { ...headers, Host: '127.0.0.1' }, body }));
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) throw new Error(`${name} ${JSON.stringify(args)}: ${response.status} ${text.slice(0, 300)}`);
  return text.length;
}

const listed = await ours.fetch(new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: '127.0.0.1' }, body: toolsListBody }));
const calls = toolCallArguments(root, source, listedTools(await listed.text()));

interface ProfileNode {
  selfSize: number;
  children: ProfileNode[];
}
const totalSize = (node: ProfileNode): number => node.children.reduce((sum, child) => sum + totalSize(child), node.selfSize);

const session = new Session();
session.connect();
/** The bytes `run` allocates, by the sampling heap profiler's estimate, the objects collected meanwhile included. */
async function allocated(run: () => Promise<void>): Promise<number> {
  await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await run();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
  return totalSize(profile.head);
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
for (const era of eras) {
  // Every call once, uncounted: the tools' first calls compile and fill caches.
  for (const [tool, argumentSets] of Object.entries(calls)) for (const args of argumentSets) await call(ours.fetch.bind(ours), era, tool, args);
  console.log(`\nThe ${era} era (MCP-Protocol-Version ${revisions[era]}), memory allocated a tool call (KiB, the objects collected since included):\n`);
  console.log('| Tool | Calls | Ours | Bare SDK, as many characters | Ours / bare SDK | Answer characters |');
  console.log('|---|---:|---:|---:|---:|---:|');
  let oursTotal = 0;
  let bareTotal = 0;
  let callTotal = 0;
  for (const [tool, argumentSets] of Object.entries(calls)) {
    const count = Math.max(argumentSets.length, minimumCalls);
    let characters = 0;
    const oursBytes = await allocated(async () => {
      for (let index = 0; index < count; index++) characters += await call(ours.fetch.bind(ours), era, tool, argumentSets[index % argumentSets.length] ?? {});
    });
    answerHolder.benchAnswerText = 'x'.repeat(Math.round(characters / count));
    for (let index = 0; index < 20; index++) await call(bare.default.fetch, era, 'answer', {});
    const bareBytes = await allocated(async () => {
      for (let index = 0; index < count; index++) await call(bare.default.fetch, era, 'answer', {});
    });
    oursTotal += oursBytes;
    bareTotal += bareBytes;
    callTotal += count;
    console.log(`| ${tool} | ${count} | ${kib(oursBytes / count)} | ${kib(bareBytes / count)} | ${(oursBytes / Math.max(bareBytes, 1)).toFixed(1)} | ${Math.round(characters / count)} |`);
  }
  console.log(`| all tools | ${callTotal} | ${kib(oursTotal / callTotal)} | ${kib(bareTotal / callTotal)} | ${(oursTotal / Math.max(bareTotal, 1)).toFixed(1)} | |`);
}
session.disconnect();
await ours.close();
