/**
 * What the tools' answers say, read as an agent reads them (the data, not the schema's
 * descriptions): every "already there" answer is in the data and is what the request check (the
 * sandbox) answers; each action's details carry what is its own and point to the rest; the
 * overview gives the whole retry policy; tools/list carries each definition once; the prompts'
 * arguments say and complete their values, and a language cuts the throttling prompt. Every expected
 * value is read from the model, the retry policy or the spec rules.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { actionErrorAnswers } from '../../src/lib/contract/error-bodies.ts';
import { factsOf } from '../../src/lib/contract/facts.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { backoffSchedule, policyPhrases, retryPolicy } from '../../src/lib/samples/retry-policy.ts';
import { sampleLanguage, sampleLanguageNames } from '../../src/lib/samples/code-samples.ts';
import { sampleStatuses } from '../../src/lib/samples/sample-statuses.ts';
import { retryingClientLanguages, retryingClientSamples } from '../../src/lib/samples/retrying-client-sample.ts';
import { specRule } from '../../src/lib/spec-rules.ts';
import { bundledDocument } from '../support/reference-fixture.ts';
import { useInProcessServer } from '../support/in-process-server.ts';

const model = readReferenceModel(bundledDocument());
const facts = factsOf(model);
const { lifecycle } = model;
const okStatus = Number(successResponse(model.responses).status);

const server = useInProcessServer('tool-answers');

const ask = (name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => server.structuredAnswer(name, args);

type Outcome = 'changed' | 'unchanged' | 'refused';

interface Details {
  acceptedFrom: string[];
  statusField?: string;
  moves: { from: string; to: string[] }[];
  answersUnchanged: { from: string[]; when?: string; answer: string; example?: { summary: string; body: unknown } };
  refusedFrom: (string | { status: string; unless: string })[];
}

/** What action_details says an action does from `current`, asked for `target` when the request chooses it. */
function fromDetails(details: Details, current: string, target: string | undefined): Outcome[] {
  const said: Outcome[] = [];
  const field = details.statusField;
  const unchangedHere = details.answersUnchanged.from.includes(current);
  if (field === undefined) {
    if (unchangedHere) said.push('unchanged');
    if (details.acceptedFrom.includes(current)) said.push('changed');
    if (details.refusedFrom.includes(current)) said.push('refused');
    return said;
  }
  assert.equal(details.answersUnchanged.when, `${field}=<the current status>`);
  if (target === current && unchangedHere) return ['unchanged'];
  if (details.moves.find((move) => move.from === current)?.to.includes(target ?? '') === true) said.push('changed');
  const refusal = details.refusedFrom.find((entry) => typeof entry === 'object' && entry.status === current);
  if (refusal !== undefined) {
    assert.equal(typeof refusal === 'object' && refusal.unless, `${field}=${current}`);
    said.push('refused');
  }
  // Any other target from an accepted status is refused: the moves list the allowed ones.
  if (said.length === 0 && details.acceptedFrom.includes(current)) said.push('refused');
  return said;
}

interface StatusAnswer {
  actions: { action: string; to: string[]; statusField?: string }[];
  answersUnchanged: (string | { action: string; when: string })[];
  refused: (string | { action: string; unless: string })[];
}

function fromLifecycle(answer: StatusAnswer, action: string, target: string | undefined): Outcome[] {
  const said: Outcome[] = [];
  const changing = answer.actions.find((entry) => entry.action === action);
  const unchanged = answer.answersUnchanged.find((entry) => (typeof entry === 'string' ? entry : entry.action) === action);
  const refused = answer.refused.find((entry) => (typeof entry === 'string' ? entry : entry.action) === action);
  if (target === undefined) {
    if (changing !== undefined) said.push('changed');
    if (unchanged !== undefined) said.push('unchanged');
    if (refused !== undefined) said.push('refused');
    return said;
  }
  if (typeof unchanged === 'object' && unchanged.when === `${changing?.statusField ?? unchanged.when.split('=')[0]}=${target}`) said.push('unchanged');
  if (changing?.to.includes(target) === true) said.push('changed');
  if (typeof refused === 'object' && refused.unless !== `${refused.unless.split('=')[0]}=${target}`) said.push('refused');
  if (said.length === 0 && changing !== undefined) said.push('refused');
  return said;
}

describe('every "already there" answer is in the data, and is what the request check answers', () => {
  test('for every action, from every status (and to every target of change_status): action_details, lifecycle and check_request agree', async () => {
    const byStatus = new Map<string, StatusAnswer>();
    for (const status of lifecycle.states) byStatus.set(status, ((await ask('lifecycle', { status })).byStatus as StatusAnswer[])[0]!);
    let unchangedSeen = 0;
    for (const action of model.actions) {
      const details = (await ask('action_details', { action: action.identifier })) as unknown as Details;
      const field = action.transition.kind === 'chosen' ? action.transition.field : undefined;
      for (const current of lifecycle.states) {
        for (const target of field === undefined ? [undefined] : lifecycle.states) {
          const body = field === undefined ? action.requestExample.value : { ...action.requestExample.value, [field]: target };
          const checked = await ask('check_request', { body, current_status: current });
          const [answer] = checked.answers as { status: number; body: Record<string, unknown> }[];
          const truth: Outcome = answer?.status === okStatus ? (answer.body[facts.changedField] === false ? 'unchanged' : 'changed') : 'refused';
          if (truth === 'refused') assert.equal(String(answer?.status), conflictStatus);
          if (truth === 'unchanged') unchangedSeen += 1;
          const where = `${action.identifier} from ${current}${target === undefined ? '' : ` to ${target}`}`;
          assert.deepEqual(fromDetails(details, current, target), [truth], `action_details, ${where}`);
          assert.deepEqual(fromLifecycle(byStatus.get(current)!, action.identifier, target), [truth], `lifecycle, ${where}`);
        }
      }
    }
    assert.ok(unchangedSeen > 0, 'the sandbox answers some request with nothing changed');
  });

  test("the contract's example of a repeated action is in that action's details, with the statuses it answers from", async () => {
    const repeated = model.actions.flatMap((action) => action.moreSuccessExamples.filter((example) => (example.value as Record<string, unknown>)[facts.changedField] === false).map((example) => ({ action, example })));
    assert.ok(repeated.length > 0, 'the contract shows a repeated action');
    for (const { action, example } of repeated) {
      const details = (await ask('action_details', { action: action.identifier })) as unknown as Details;
      assert.deepEqual(details.answersUnchanged.example, { summary: example.summary, body: example.value });
      assert.ok(details.answersUnchanged.from.includes(String((example.value as Record<string, unknown>).status)));
      assert.match(details.answersUnchanged.answer, new RegExp(`^${okStatus}\\b.*${facts.changedField}: false`));
    }
  });
});

describe("each action's details carry what is its own", () => {
  test('by default no field says deprecated: false, no enumValues repeats the constraints, and only the errors other actions do not answer alike', async () => {
    const rows = (identifier: string) => model.actions.find((action) => action.identifier === identifier)?.errors ?? [];
    const everywhere = (row: { status: string; code: string | null; when: string }) =>
      row.status !== conflictStatus && model.actions.every((action) => action.errors.some((other) => other.status === row.status && other.code === row.code && other.when === row.when));
    for (const action of model.actions) {
      const details = await ask('action_details', { action: action.identifier });
      const text = JSON.stringify(details);
      assert.doesNotMatch(text, /"deprecated":false|"enumValues"/, action.identifier);
      // Each value once: a field's example is the request example's member, and the moves of an action with one target are acceptedFrom and leadsTo.
      assert.ok((details.fields as Record<string, unknown>[]).every((field) => !('example' in field)), `${action.identifier}: a field repeats the request example`);
      assert.equal('moves' in details, action.transition.kind === 'chosen', `${action.identifier}: moves only where the request chooses the target`);
      const shared = rows(action.identifier).filter(everywhere);
      assert.deepEqual(
        (details.errors as { status: number; code?: string }[]).map((error) => `${error.status} ${error.code ?? ''}`),
        rows(action.identifier).filter((row) => !shared.includes(row)).map((row) => `${row.status} ${row.code ?? ''}`),
        action.identifier,
      );
      assert.ok(shared.length > 0, 'some errors are common to every action');
      for (const row of shared) assert.ok(String(details.otherErrors).includes(`${row.status}${row.code === null ? '' : ` ${row.code}`}`), `${action.identifier}: ${row.code}`);
      const whole = await ask('action_details', { action: action.identifier, errors: true });
      assert.equal(whole.otherErrors, undefined);
      assert.deepEqual((whole.errors as { status: number }[]).map((error) => String(error.status)), action.errors.map((error) => error.status));
      const bodies = (whole.errors as { examples?: { body: unknown }[] }[]).flatMap((error) => (error.examples ?? []).map((example) => example.body));
      assert.deepEqual(bodies.length, actionErrorAnswers(model, action).bodies.length, `${action.identifier}: every error body once`);
      assert.ok(text.length < JSON.stringify(whole).length);
    }
  });
});

describe('the overview says the whole retry policy and what v1 promises', () => {
  test('every number of the policy, what a long Retry-After means, the plain-permalinks URL and the deprecation promise', async () => {
    const overview = await ask('api_overview');
    const policy = overview.retryPolicy as Record<string, unknown> & { retryAfter: { forms: string[]; longestWaitSeconds: number; longer: string; missing: string } };
    assert.deepEqual(policy.backoffScheduleSeconds, backoffSchedule(retryPolicy));
    assert.equal(policy.backoffMaxSeconds, retryPolicy.backoffMaxSeconds);
    assert.match(String(policy.jitter), new RegExp(`${Math.round((1 - retryPolicy.backoffFixedShare) * 100)} %`));
    assert.equal(policy.retryAfter.longestWaitSeconds, retryPolicy.retryAfterCapSeconds);
    assert.match(policy.retryAfter.longer, /not waited out/);
    assert.match(policy.retryAfter.longer, /stop and report/);
    assert.ok(policy.retryAfter.forms.some((form) => form.includes(facts.retryAfterDateExample)), 'the HTTP-date form');
    assert.ok(policy.retryAfter.forms.some((form) => form.includes(facts.retryAfterSecondsExample)), 'the seconds form');
    assert.match(String(policy.alsoRetried), /dropped connection/);
    assert.match(String(policy.alsoRetried), /timed-out/);
    assert.equal(overview.plainPermalinksEndpoint, facts.plainPermalinkUrlTemplate);
    const site = model.endpoint.variables.find((variable) => variable.name === facts.siteVariable);
    assert.ok(String(overview.whereItRuns).includes(site?.description.replace(/\s+/g, ' ').trim() ?? '\u0000'), 'the subdirectory form of {site}');
    assert.ok(String(overview.versioning).includes(specRule('9.5').statement));
  });
});

describe('tools/list', () => {
  test('carries no safe-integer bounds, no string property names and no definition twice in one schema', async () => {
    const { tools } = await server.client.listTools();
    const text = JSON.stringify(tools);
    assert.ok(!text.includes(String(Number.MAX_SAFE_INTEGER)) && !text.includes(String(Number.MIN_SAFE_INTEGER)));
    assert.ok(!text.includes('"propertyNames":{"type":"string"}'), 'a JSON object has string names without saying so');
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        const definitions = Object.entries((schema as { $defs?: Record<string, unknown> } | undefined)?.$defs ?? {});
        const normalized = definitions.map(([name, definition]) => JSON.stringify(definition).replaceAll(`#/$defs/${name}`, '#self'));
        assert.equal(new Set(normalized).size, normalized.length, `${tool.name}: ${definitions.map(([name]) => name).join(', ')}`);
      }
    }
  });
});

describe('code_sample', () => {
  test('its description promises the error bodies only with errors: true, as the answers give them', async () => {
    const [action] = model.actions;
    assert.ok(action !== undefined);
    const [language] = sampleLanguageNames;
    const plain = await ask('code_sample', { action: action.identifier, language });
    const withErrors = await ask('code_sample', { action: action.identifier, language, errors: true });
    assert.equal(plain.errors, undefined, 'no error bodies unless asked for');
    assert.ok(Array.isArray(withErrors.errors) && withErrors.errors.length > 0, 'error bodies with errors: true');
    const { tools } = await server.client.listTools();
    const description = tools.find((tool) => tool.name === 'code_sample')?.description ?? '';
    const promised = /error bodies/i.exec(description);
    assert.ok(promised !== null, description);
    assert.match(description.slice(promised.index - 40, promised.index + 60), /errors: true/, description);
  });
});

describe('code_sample of a client library', () => {
  test('says what to fill in as the library\'s sample takes it: the key is an argument, not in a body', async () => {
    const [action] = model.actions;
    assert.ok(action !== undefined);
    for (const language of sampleLanguageNames) {
      const answer = await ask('code_sample', { action: action.identifier, language });
      const library = sampleLanguage(language).library;
      assert.equal(/ in the body/.test(String(answer.fillIn)), !library, `${language}: ${String(answer.fillIn)}`);
      assert.match(String(answer.fillIn), /<[A-Z_]+>/, `${language} names the key's placeholder`);
    }
  });
});

describe('prompts', () => {
  const values: Record<string, Record<string, readonly string[]>> = {
    integrate_action: { action: model.actions.map((action) => action.identifier), language: sampleLanguageNames },
    handle_throttling: { language: retryingClientLanguages },
  };

  test('every argument is described with the values it takes, and completion offers those that start as typed', async () => {
    const { prompts } = await server.client.listPrompts();
    for (const [name, argumentValues] of Object.entries(values)) {
      const prompt = prompts.find((candidate) => candidate.name === name);
      assert.deepEqual(prompt?.arguments?.map((argument) => argument.name), Object.keys(argumentValues), name);
      for (const argument of prompt?.arguments ?? []) {
        const allowed = argumentValues[argument.name] ?? [];
        for (const value of allowed) assert.ok(argument.description?.includes(value), `${name}.${argument.name} names ${value}`);
        const everything = await server.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument.name, value: '' } });
        assert.deepEqual(everything.completion.values, allowed);
        const typed = (allowed[1] ?? '').slice(0, 2);
        const some = await server.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument.name, value: typed } });
        assert.deepEqual(some.completion.values, allowed.filter((value) => value.startsWith(typed)), `${name}.${argument.name} "${typed}"`);
      }
    }
  });

  test("handle_throttling with a language carries the policy with its numbers and that language's retrying client alone", async () => {
    const textOf = (result: Awaited<ReturnType<Client['getPrompt']>>) =>
      result.messages.map((message) => (message.content.type === 'text' ? message.content.text : message.content.type === 'resource' && 'text' in message.content.resource ? message.content.resource.text : '')).join('\n');
    const whole = textOf(await server.client.getPrompt({ name: 'handle_throttling' }));
    const [first] = model.actions;
    const clients = retryingClientSamples(model.endpoint, sampleStatuses(model.responses), first?.requestExample.value ?? {});
    for (const language of retryingClientLanguages) {
      const cut = textOf(await server.client.getPrompt({ name: 'handle_throttling', arguments: { language } }));
      assert.ok(cut.length < whole.length / 2, `${language}: ${cut.length} of ${whole.length}`);
      for (const sample of clients) assert.equal(cut.includes(sample.code.trimEnd()), sample.language === language, `${language} prompt, ${sample.language} client`);
      for (const [phrase, words] of Object.entries(policyPhrases(retryPolicy))) assert.ok(cut.includes(words), `${language}: the policy's ${phrase} (${words})`);
      assert.ok(cut.includes(facts.retryAfterDateExample), `${language}: the date form of ${facts.retryAfterHeader}`);
    }
  });
});
