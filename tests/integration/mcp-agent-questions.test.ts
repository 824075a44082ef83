/**
 * The product-information server as an agent uses it: the questions users relay, asked through the
 * official SDK client handed the server's fetch handler (no port), each answer checked against facts read from the contract,
 * the retry policy and the product facts (nothing typed here). Also: the tools' pages are the
 * site's own Markdown, search puts the canonical page first, and the request check answers every
 * body as the sandbox, served over HTTP, does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { openApiJsonPath } from '../../src/lib/site/discovery.ts';
import { allowedActions } from '../../src/lib/contract/lifecycle.ts';
import { llmsFullSections } from '../../src/lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath, guidePaths } from '../../src/lib/site/navigation.ts';
import { productFactsFile } from '../../src/lib/product-facts.ts';
import { publishedUrl } from '../../src/lib/site/reference-markdown.ts';
import { retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { sampleLanguage } from '../../src/lib/samples/code-samples.ts';
import { retryingClientLanguages } from '../../src/lib/samples/retrying-client-sample.ts';
import { actionErrorAnswers } from '../../src/lib/contract/error-bodies.ts';
import { blocksOf, passageUrl } from '../../src/mcp-server/passages.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { bundledDocument } from '../support/reference-fixture.ts';
import { useInProcessServer } from '../support/in-process-server.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const model = readReferenceModel(bundledDocument());
const { lifecycle, envelope } = model;

const server = useInProcessServer('agent-questions');

/** The page a result's address belongs to, its section's anchor left off. */
const pageOf = (url: string | undefined) => url?.split('#')[0];

const ask = (name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => server.structuredAnswer(name, args);

async function wholePage(url: string): Promise<string> {
  let text = '';
  let cursor: string | undefined;
  do {
    const part = await ask('read_page', cursor === undefined ? { url } : { url, cursor });
    text += String(part.markdown);
    cursor = part.nextCursor as string | undefined;
  } while (cursor !== undefined);
  return text;
}

const cancelled = lifecycle.states.find((status) => status === 'cancelled') ?? lifecycle.states.at(-2) ?? '';
const pause = model.actions.find((action) => action.identifier.startsWith('pause'))?.identifier ?? '';

describe('questions an agent gets from users', () => {
  test('"Which actions can I run on a cancelled subscription?": the lifecycle tool answers what the lifecycle allows, and change_status only its moves', async () => {
    const answer = await ask('lifecycle', { status: cancelled });
    const [byStatus] = answer.byStatus as { actions: { action: string; to: string[] }[] }[];
    assert.deepEqual(byStatus?.actions.map((entry) => entry.action), allowedActions(lifecycle, cancelled));
    for (const transition of lifecycle.transitions) {
      if (transition.kind !== 'chosen') continue;
      const allowed = transition.moves.find((move) => move.from === cancelled)?.to ?? [];
      assert.deepEqual(byStatus?.actions.find((entry) => entry.action === transition.action)?.to, allowed);
      const details = await ask('action_details', { action: transition.action });
      assert.deepEqual((details.moves as { from: string; to: string[] }[]).find((move) => move.from === cancelled)?.to, allowed);
    }
  });

  test('"Is there a webhook when a payment fails?": the first passage search returns is the endpoint page\'s, and says there are none; the subscription-data answer says so too', async () => {
    const search = await ask('search_docs', { query: 'Is there a webhook when a payment fails?' });
    const [first] = search.results as { url: string; text: string }[];
    assert.equal(pageOf(first?.url), publishedUrl(endpointPagePath));
    assert.match(first?.text ?? '', /No events or webhooks/, 'the sentence deep in a long page is in the first passage');
    assert.match(await wholePage(first?.url ?? ''), /No events or webhooks/, 'read_page reads the passage\'s section by its anchor');
    const data = await ask('subscription_data', { question: 'Tell me when a payment fails' });
    assert.equal(data.apiHasWebhooks, false);
  });

  test('"Give me a curl example for pausing": the site\'s sample, with both timeouts, no -L, and the <API_KEY> placeholder', async () => {
    const sample = await ask('code_sample', { action: pause, language: 'curl' });
    const code = String(sample.code);
    assert.ok(code.includes(`--connect-timeout ${retryPolicy.connectTimeoutSeconds}`), code);
    assert.ok(code.includes(`--max-time ${retryPolicy.attemptTimeoutSeconds}`), code);
    assert.doesNotMatch(code, /(^|\s)(-L|--location)\b/);
    assert.ok(code.includes('<API_KEY>'));
    assert.ok(code.includes(model.endpoint.urlPath));
    const page = await wholePage(actionPagePath(pause));
    assert.ok(page.includes(code.trim().split('\n')[0] ?? '\u0000'), 'the sample is the one the reference page shows');
  });

  test('"What happens on a 429?": the overview and the errors guide give the policy with its numbers', async () => {
    const overview = await ask('api_overview');
    const policy = overview.retryPolicy as Record<string, unknown>;
    assert.equal(policy.connectTimeoutSeconds, retryPolicy.connectTimeoutSeconds);
    assert.equal(policy.attemptTimeoutSeconds, retryPolicy.attemptTimeoutSeconds);
    assert.equal(policy.maxAttempts, retryPolicy.maxAttempts);
    assert.equal((policy.retryAfter as Record<string, unknown>).longestWaitSeconds, retryPolicy.retryAfterCapSeconds);
    const search = await ask('search_docs', { query: 'What happens on a 429?' });
    assert.equal(pageOf((search.results as { url: string }[])[0]?.url), publishedUrl(guidePaths.errors));
    const dated = await ask('search_docs', { query: 'Can Retry-After be an HTTP date instead of seconds?' });
    const [datePassage] = dated.results as { url: string; text: string }[];
    assert.equal(pageOf(datePassage?.url), publishedUrl(guidePaths.errors));
    assert.match(datePassage?.text ?? '', /HTTP date|HTTP-date/, 'the date form is in the first passage, not in a later part of the page');
    const guide = await wholePage(guidePaths.errors);
    assert.ok(guide.includes(`**${retryPolicy.connectTimeoutSeconds} seconds** to connect`), 'the timeout has its number');
    assert.doesNotMatch(guide, / {2}to connect|at most {2}in all/, 'no blank where a number stands');
  });

  test('"What is the status of subscription 4711?": no data here, and the API has no read, list or webhook', async () => {
    const answer = await ask('subscription_data', { question: 'What is the status of subscription 4711?' });
    assert.equal(answer.holdsSubscriptionData, false);
    assert.equal(answer.apiHasRead, false);
    assert.equal(answer.apiHasList, false);
    assert.match(String(answer.notInTheApi), /no read operation/);
    assert.ok((answer.insteadDo as string[]).length > 0);
  });
});

describe('passages and sections', () => {
  test('every passage\'s address reaches a heading of its built page, one id for one heading', async () => {
    const idsOf = new Map<string, string[]>();
    for (const passage of server.knowledge.search.passages) {
      const address = new URL(passageUrl(passage));
      if (address.hash === '') continue;
      const ids =
        idsOf.get(address.pathname) ??
        [...readFileSync(path.join(projectDirectory, 'dist', address.pathname, 'index.html'), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((match) => match[1] ?? '');
      idsOf.set(address.pathname, ids);
      const anchor = decodeURIComponent(address.hash.slice(1));
      assert.equal(ids.filter((id) => id === anchor).length, 1, `${address.href} names one id of its page`);
    }
  });

  test('no passage of the built site cuts a table row: every table line is a whole row', () => {
    for (const passage of server.knowledge.search.passages) {
      const tableLines = passage.text.split('\n').filter((line) => line.startsWith('|'));
      for (const line of tableLines) assert.match(line, /\|$/, `${passageUrl(passage)} ends a row mid-cell: ${line.slice(-60)}`);
      if (tableLines.length > 0 && !/^\s*(```|~~~)/m.test(passage.text)) assert.equal(passage.cut, false, `${passageUrl(passage)} is cut`);
    }
  });

  test('no passage of the built site starts with a code block whose label its page writes above it', () => {
    const isLabel = (block: string) => !block.includes('\n') && block.startsWith('**');
    for (const passage of server.knowledge.search.passages) {
      if (!/^(```|~~~)/.test(passage.text)) continue;
      const page = server.knowledge.pages.find((candidate) => candidate.url === passage.pageUrl);
      const blocks = blocksOf(page?.markdown ?? '');
      const firstLine = passage.text.split('\n').slice(0, 3).join('\n');
      const at = blocks.findIndex((block) => block.startsWith(firstLine));
      assert.ok(at >= 0, passageUrl(passage));
      assert.ok(!isLabel(blocks[at - 1] ?? ''), `${passageUrl(passage)} shows a code block without its label "${blocks[at - 1] ?? ''}"`);
    }
  });

  test('read_page reads every passage\'s section by the section path search_docs gives it', async () => {
    const sections = new Map(server.knowledge.search.passages.map((passage) => [passage.headingPath.join(' › '), passage]));
    for (const [section, passage] of sections) {
      const answer = await ask('read_page', { url: passage.pageUrl, section });
      assert.equal(answer.url, passageUrl(passage), section);
    }
  });

  test('read_page takes an anchor or a heading and returns that section alone', async () => {
    const byAnchor = await ask('read_page', { url: `${guidePaths.errors}#rate-limits` });
    const byHeading = await ask('read_page', { url: guidePaths.errors, section: 'Rate limits' });
    assert.equal(byAnchor.markdown, byHeading.markdown);
    assert.match(String(byAnchor.markdown), /^## Rate limits\n/);
    assert.doesNotMatch(String(byAnchor.markdown), /\n## (?!Rate limits)/, 'no section after it');
    const refused = await server.client.callTool({ name: 'read_page', arguments: { url: guidePaths.errors, section: 'no such section' } });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /#rate-limits/, 'the refusal lists the sections');
  });

  test('lifecycle from every status lists change_status among the answers unchanged, as the sandbox answers changed: false', async () => {
    const chosen = lifecycle.transitions.find((transition) => transition.kind === 'chosen');
    assert.ok(chosen);
    const answer = await ask('lifecycle');
    for (const entry of answer.byStatus as { status: string; answersUnchanged: (string | { action: string; when: string })[] }[]) {
      assert.deepEqual(
        entry.answersUnchanged.find((unchanged) => typeof unchanged === 'object' && unchanged.action === chosen.action),
        { action: chosen.action, when: `${chosen.field}=${entry.status}` },
        entry.status,
      );
    }
  });

  test('code_sample adds the error bodies only on request, and names every language of the retrying client', async () => {
    const plain = await ask('code_sample', { action: pause, language: 'curl' });
    assert.equal(plain.errors, undefined);
    const withErrors = await ask('code_sample', { action: pause, language: 'curl', errors: true });
    const action = model.actions.find((candidate) => candidate.identifier === pause);
    assert.deepEqual((withErrors.errors as { status: number }[]).map((error) => String(error.status)), actionErrorAnswers(model, action ?? model.actions[0]!).bodies.map((body) => body.status));
    for (const language of retryingClientLanguages) assert.ok(String(plain.retrying).includes(sampleLanguage(language).label), language);
  });
});

describe('search puts the canonical page first', () => {
  const first = async (query: string) => pageOf(((await ask('search_docs', { query })).results as { url: string }[])[0]?.url);
  test('for the authentication and OAuth questions: the authentication guide', async () => {
    assert.equal(await first('How do I get an API key?'), publishedUrl(guidePaths.authentication));
    assert.equal(await first('Can I use OAuth?'), publishedUrl(guidePaths.authentication));
  });
  test('for every error code: the errors guide; for every action: its page', async () => {
    for (const response of model.responses) for (const error of response.errorCodes) assert.equal(await first(error.code), publishedUrl(guidePaths.errors), error.code);
    for (const action of model.actions) assert.equal(await first(action.identifier), publishedUrl(actionPagePath(action.identifier)), action.identifier);
  });
  test('filters and the offset', async () => {
    const reference = await ask('search_docs', { query: envelope.credential, kinds: ['reference'], limit: 2 });
    assert.ok((reference.results as { kind: string }[]).every((result) => result.kind === 'reference'));
    const next = await ask('search_docs', { query: envelope.credential, kinds: ['reference'], limit: 2, offset: Number(reference.nextOffset) });
    assert.notDeepEqual(next.results, reference.results);
  });
});

describe('one rendering', () => {
  const built = llmsFullSections(readFileSync(path.join(projectDirectory, 'dist/llms-full.txt'), 'utf8'));

  test('every page the tools return, all its parts together, is its section of the built llms-full.txt', async () => {
    assert.ok(built.length > model.actions.length);
    for (const page of built) assert.equal(await wholePage(page.url), page.markdown, page.url);
  });

  test('a long page comes in parts, each within the limit unless one block is longer', async () => {
    const first = await ask('read_page', { url: guidePaths.errors });
    assert.ok(Number(first.parts) > 1);
    assert.ok(typeof first.nextCursor === 'string');
  });

  test('the resources are every page, llms.txt and the OpenAPI document', async () => {
    const { resources } = await server.client.listResources();
    const uris = new Set(resources.map((resource) => resource.uri));
    for (const page of built) assert.ok(uris.has(page.url), page.url);
    assert.ok(uris.has(publishedUrl(openApiJsonPath)));
    const read = await server.client.readResource({ uri: built[0]?.url ?? '' });
    assert.equal((read.contents[0] as { text: string }).text, built[0]?.markdown);
    const { prompts } = await server.client.listPrompts();
    assert.ok(prompts.length >= 3);
  });

  test('no answer carries a repository path, and no list is announced as changing', async () => {
    for (const topic of ['editions', 'pricing', 'payment_gateways', 'features']) assert.ok(!JSON.stringify(await ask('product_information', { topic })).includes(productFactsFile));
    const capabilities = server.client.getServerCapabilities();
    for (const kind of ['tools', 'resources', 'prompts'] as const) assert.notEqual(capabilities?.[kind]?.listChanged, true, kind);
  });
});

describe('the request check and the sandbox answer alike', () => {
  const bodies = (id: number, key: string) => [
    ...model.actions.map((action) => ({ ...action.requestExample.value, [envelope.subject]: id, [envelope.credential]: key })),
    { [envelope.selector]: pause, [envelope.credential]: key },
    { [envelope.selector]: pause, [envelope.subject]: id, [envelope.credential]: key, unknown_field: true },
    { [envelope.selector]: 'no_such_action', [envelope.subject]: id, [envelope.credential]: key },
    { [envelope.selector]: pause, [envelope.subject]: 'not a number', [envelope.credential]: key },
  ];
  const cases = lifecycle.states.flatMap((status) => bodies(0, '').map((_, index) => ({ status, index })));
  let sandbox: Sandbox;
  before(async () => {
    // One subscription per case, each in its status, so no request sees another's change.
    sandbox = await startSandbox({ port: 0, seed: cases.map((entry, position) => ({ id: position + 1, status: entry.status })) });
  });
  after(async () => {
    await sandbox.close();
  });

  test('every action example from every status, and bodies wrong in each way', async () => {
    for (const [position, { status, index }] of cases.entries()) {
      const body = bodies(position + 1, sandbox.apiKey)[index];
      const checked = await ask('check_request', { body, current_status: status });
      const [answer] = checked.answers as { status: number; body: unknown }[];
      const response = await fetch(sandbox.endpointUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(answer?.status, response.status, `${JSON.stringify(body)} from ${status}`);
      assert.deepEqual(answer?.body, await response.json(), `${JSON.stringify(body)} from ${status}`);
    }
  });

  test('a key the site does not take gets the 401 the sandbox gives', async () => {
    const body = { ...model.actions[0]?.requestExample.value, [envelope.subject]: 1, [envelope.credential]: 'wrong' };
    const checked = await ask('check_request', { body, current_status: cases[0]?.status, site_accepts_credential: false });
    const response = await fetch(sandbox.endpointUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const [answer] = checked.answers as { status: number; body: unknown }[];
    assert.equal(answer?.status, response.status);
    assert.deepEqual(answer?.body, await response.json());
  });
});
