/**
 * Nothing hostile reaches a 5xx: generated requests (bodies nested to 100,000 levels, huge
 * numbers and strings, bytes that are not UTF-8, odd media types, methods and paths) go to the
 * sandbox's `answerRequest` in process, and every answer is one the document gives: the WordPress
 * error envelope, the success body, or what WordPress core and the host answer around them. A fixed
 * seed, so a failure is the same on every machine; fast-check prints the counterexample.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { validBody } from '../../src/conformance/cases.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { readExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { wordpressRestPrefix } from '../../src/lib/contract/endpoint.ts';
import type { Answer } from '../../src/sandbox/answer.ts';
import { bodyLimitBytes } from '../../src/sandbox/host.ts';
import { routeArguments } from '../../src/lib/contract/route-arguments.ts';
import { defaultApiKey, defaultSeed } from '../../src/sandbox/seed.ts';
import { answerRequest } from '../../src/sandbox/server.ts';
import { openStore } from '../../src/sandbox/store.ts';
import { bundledDocument } from '../support/contract-copy.ts';
import { bodyBytes, bodyRecipe, headerValue, mediaType, method } from '../support/hostile-requests.ts';

const contract = readExecutableContract(bundledDocument());
const { endpoint } = contract.model;
const store = openStore(':memory:', contract.model.lifecycle.states);
store.addMissing(defaultSeed(contract.model.lifecycle));
after(() => store.close());

const settings = { apiKey: defaultApiKey, basePath: '' };
const [firstAction] = contract.model.actions;
assert.ok(firstAction, 'the document has an action');
// With names a JavaScript object holds on its prototype, which PHP's arrays do not have.
const prototypeNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const memberNames = [...new Set([...routeArguments(contract).map((argument) => argument.name), ...contract.model.actions.flatMap((action) => action.fields.map((field) => field.name)), ...prototypeNames])];

/** A request answered longer than this is taken for a hang: the slowest generated one takes well under a second. */
const hangMs = 10_000;

const route = endpoint.urlPath.slice(wordpressRestPrefix.length);
const target = fc.oneof(
  { weight: 6, arbitrary: fc.constant(endpoint.urlPath) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      `${endpoint.urlPath}/`,
      endpoint.urlPath.toUpperCase(),
      `${endpoint.urlPath}?_envelope`,
      `${endpoint.urlPath}?_method=GET`,
      `${endpoint.urlPath}?${contract.model.envelope.credential}=${defaultApiKey}`,
      `/?rest_route=${route}`,
      `/index.php?rest_route=${encodeURIComponent(route)}&_envelope=1`,
      `/?rest_route[]=${route}`,
      endpoint.versionNamespace,
      `${wordpressRestPrefix}/`,
      `${wordpressRestPrefix}/%E0%A4%A`,
      '//',
      '//a:b@c/wp-json/',
      '*',
      'http://[/wp-json',
      '/',
    ),
  },
  { weight: 1, arbitrary: fc.webPath() },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => `${endpoint.urlPath}?${text}`) },
);

const hostileRequest = fc.record({
  method,
  target,
  body: bodyRecipe(memberNames),
  mediaType,
  origin: headerValue,
  methodOverride: fc.option(fc.oneof(fc.constantFrom('POST', 'GET', 'DELETE', 'ÿ', ''), fc.string({ maxLength: 10 })), { nil: undefined }),
  host: fc.option(fc.constantFrom('shop.example', '', '[::1]:80', 'a'.repeat(300), 'x y'), { nil: undefined }),
  subscriptionId: fc.integer({ min: 1, max: contract.model.lifecycle.states.length + 1 }),
});

function isErrorEnvelope(body: unknown, status: number): boolean {
  if (!isRecord(body) || typeof body.code !== 'string' || typeof body.message !== 'string') return false;
  return isRecord(body.data) && body.data[contract.errors.statusMember] === status;
}

/** What is wrong with a JSON answer's body, by the document and WordPress's envelope; undefined when nothing is. */
function jsonProblem(status: number, body: unknown, enveloped = false): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status < 400 && isRecord(body)) {
    // `?_envelope`: the answer inside a 200, judged the same way.
    if (!enveloped && typeof body.status === 'number' && 'body' in body && (isRecord(body.headers) || Array.isArray(body.headers))) return jsonProblem(body.status, body.body, true);
    // Core's own answers: the indexes and OPTIONS, which describe routes.
    if ('namespace' in body || 'routes' in body) return undefined;
  }
  const documented = contract.response(status)?.body;
  if (documented !== undefined) {
    const validate = contract.schemas.schemaAt(documented.pointer);
    if (!validate(body)) return `the ${status} body is not the document's ${documented.pointer}: ${JSON.stringify(validate.errors?.slice(0, 2))}`;
  }
  if (status >= 400) return isErrorEnvelope(body, status) ? undefined : `the ${status} body is not WordPress's error envelope`;
  return documented === undefined ? `an undocumented ${status} body` : undefined;
}

/** Statuses the host answers with an HTML page of its own: the front end, and a body too large. */
const hostPageStatuses = [200, 404, 413];

function answerProblem(answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.body.slice(0, 200)}`;
  const type = answer.headers['content-type'] ?? '';
  if (type.startsWith('text/html')) return hostPageStatuses.includes(answer.status) ? undefined : `an HTML ${answer.status}`;
  if (!type.startsWith('application/json')) return `Content-Type ${JSON.stringify(type)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `a body that is not JSON: ${answer.body.slice(0, 120)}`;
  }
  return jsonProblem(answer.status, body);
}

describe('the sandbox under hostile requests', () => {
  test('answers every generated request within the document, never with a 5xx, and none hangs', () => {
    fc.assert(
      fc.property(hostileRequest, (request) => {
        const valid = validBody(contract, firstAction, { apiKey: defaultApiKey }, request.subscriptionId);
        const bytes = bodyBytes(request.body, valid);
        const headers: Record<string, string> = {};
        if (request.mediaType !== undefined) headers['content-type'] = request.mediaType;
        if (request.origin !== undefined) headers.origin = request.origin;
        if (request.methodOverride !== undefined) headers['x-http-method-override'] = request.methodOverride;
        if (request.host !== undefined) headers.host = request.host;
        const started = performance.now();
        // As the server reads a body: no more than the limit, and whether there was more.
        const answer = answerRequest(contract, store, settings, {
          method: request.method,
          target: request.target,
          headers,
          body: bytes.subarray(0, bodyLimitBytes),
          tooLarge: bytes.length > bodyLimitBytes,
        });
        const elapsed = performance.now() - started;
        assert.ok(elapsed < hangMs, `answered after ${Math.round(elapsed)} ms`);
        const problem = answerProblem(answer);
        assert.equal(problem, undefined, problem);
      }),
      { seed: 25, numRuns: 300 },
    );
  });

  test('a member named as a prototype member is refused as a field the action does not take, in a JSON body or a form', () => {
    const { invalidParameter, paramsMember } = contract.errors;
    for (const action of contract.model.actions) {
      const valid = validBody(contract, action, { apiKey: defaultApiKey }, 1);
      for (const name of prototypeNames) {
        const json = `{${JSON.stringify(name)}:{"a":1},${JSON.stringify(valid).slice(1)}`;
        const answer = answerRequest(contract, store, settings, { method: endpoint.method, target: endpoint.urlPath, headers: { 'content-type': 'application/json' }, body: Buffer.from(json), tooLarge: false });
        assert.equal(answer.status, invalidParameter.status, `${action.identifier} with ${name}: ${answer.body}`);
        const body = JSON.parse(answer.body) as { code: string; data: Record<string, Record<string, string>> };
        assert.equal(body.code, invalidParameter.code);
        assert.ok(Object.hasOwn(body.data[paramsMember] ?? {}, name), answer.body);
      }
    }
    // A form's `__proto__[]` is a list under that name for PHP's parse_str, never the prototype of the fields.
    const form = `__proto__[]=1&${new URLSearchParams(Object.entries(validBody(contract, firstAction, { apiKey: defaultApiKey }, 1)).map(([name, value]) => [name, String(value)])).toString()}`;
    const answer = answerRequest(contract, store, settings, { method: endpoint.method, target: `${endpoint.urlPath}?__proto__[]=x`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(form), tooLarge: false });
    assert.ok(answer.status < 500, answer.body);
  });

  test('a body nested past PHP\'s depth, up to 100,000 levels, arrays or objects, closed or cut off, gets 400 rest_invalid_json', () => {
    const { invalidJson } = contract.errors;
    for (const depth of [512, 600, 5_000, 100_000]) {
      for (const body of ['['.repeat(depth) + ']'.repeat(depth), '['.repeat(depth), `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, `{"note":${'['.repeat(depth)}`]) {
        const answer = answerRequest(contract, store, settings, { method: endpoint.method, target: endpoint.urlPath, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), tooLarge: false });
        assert.equal(answer.status, invalidJson.status, `${depth} levels: ${answer.body.slice(0, 200)}`);
        assert.equal((JSON.parse(answer.body) as { code: string }).code, invalidJson.code);
      }
    }
  });
});
