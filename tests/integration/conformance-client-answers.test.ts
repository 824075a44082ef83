/**
 * The conformance client reads a deployment's answers without trusting them: an answer nested past
 * what WordPress writes, or larger than any answer of the endpoint, is a failure with its reason,
 * never a crash of whatever checks the answer. A deployment here is a small HTTP server that
 * answers what each test tells it to.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createClient, maxAnswerBytes, maxAnswerNesting } from '../../src/conformance/client.ts';
import { exitCodeOf, exitCodes } from '../../src/conformance/exit-codes.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { loadGatedContract } from '../../src/sandbox/contract-gate.ts';
import { throttleHeader } from '../../src/sandbox/host.ts';
import { projectDirectory } from '../support/contract-copy.ts';

let server: Server;
let baseUrl: string;
/** How many more requests to /reset-once the server resets before it answers. */
let resetsLeft = 0;
/** What the server answers, by request path. */
const answers = new Map<string, () => string | Buffer>();

before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/reset-always' || (request.url === '/reset-once' && resetsLeft-- > 0)) {
      request.socket.resetAndDestroy();
      return;
    }
    const body = answers.get(request.url ?? '')?.() ?? '';
    if (request.url === '/prototype-header') response.setHeader('__proto__', 'kept');
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => createClient({ baseUrl, paceMs: 0, throttledStatus: 429 });
const post = (path: string) => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });

describe('the conformance client reading answers', () => {
  test('a connection reset under a request is sent once more on a new connection, as a kept-alive connection closed by the server needs', async () => {
    answers.set('/reset-once', () => '{"code":"answered"}');
    resetsLeft = 1;
    const exchange = await client().send(post('/reset-once'));
    assert.equal(exchange.failure, undefined);
    assert.equal(exchange.answer?.body, '{"code":"answered"}');
    assert.equal(resetsLeft, -1, 'the request went twice');
  });

  test('a deployment that resets every connection is a failure with its reason, after one more try', async () => {
    const exchange = await client().send(post('/reset-always'));
    assert.equal(exchange.answer, undefined);
    assert.equal(exchange.failureKind, 'connection failed');
    assert.match(exchange.failure ?? '', /no answer: connection failed \((ECONNRESET|UND_ERR_SOCKET|EPIPE)\)/);
  });

  test('a header named __proto__ is read as a header, not as the prototype of the headers', async () => {
    answers.set('/prototype-header', () => '{}');
    const exchange = await client().send(post('/prototype-header'));
    const headers = exchange.answer?.headers ?? {};
    assert.equal(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value, 'kept');
    assert.equal(Object.getPrototypeOf(headers), Object.prototype);
  });

  test('an answer nested as deep as WordPress writes is read as it is', async () => {
    const text = `${'['.repeat(maxAnswerNesting)}${']'.repeat(maxAnswerNesting)}`;
    answers.set('/deep-enough', () => text);
    const exchange = await client().send(post('/deep-enough'));
    assert.equal(exchange.failure, undefined);
    assert.equal(exchange.answer?.body, text);
  });

  test('an answer nested 100,000 levels is a failure that says why, and no answer is handed on', async () => {
    answers.set('/too-deep', () => `{"code":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const exchange = await client().send(post('/too-deep'));
    assert.equal(exchange.answer, undefined);
    assert.match(exchange.failure ?? '', new RegExp(`400 answer's body nests deeper than ${maxAnswerNesting} levels`));
  });

  test('an answer larger than the client reads is a failure that says why', async () => {
    answers.set('/too-large', () => Buffer.alloc(maxAnswerBytes + 1, 0x20));
    const exchange = await client().send(post('/too-large'));
    assert.equal(exchange.answer, undefined);
    assert.match(exchange.failure ?? '', /larger than 8 MiB/);
  });

  test('at set-up, an answer too large or nested too deep says the site does not answer as WordPress does (exit 4), not that it cannot be reached', async () => {
    const contract = await loadGatedContract(projectDirectory);
    const unreadable = [
      { body: () => Buffer.alloc(maxAnswerBytes + 1, 0x20), why: /answered 400, but not as WordPress's REST API does: the 400 answer's body is larger than 8 MiB/ },
      { body: () => `${'['.repeat(maxAnswerNesting + 1)}${']'.repeat(maxAnswerNesting + 1)}`, why: new RegExp(`answered 400, but not as WordPress's REST API does: the 400 answer's body nests deeper than ${maxAnswerNesting} levels`) },
    ];
    for (const { body, why } of unreadable) {
      answers.set(contract.model.endpoint.urlPath, body);
      const report = await runConformance({ contract, baseUrl, apiKey: 'conformance-key-not-a-secret', subscriptions: [1], throttleHeader });
      assert.equal(report.setup?.kind, 'not-wordpress', report.setup?.message);
      assert.equal(exitCodeOf(report, true), exitCodes.notWordPress);
      assert.match(report.setup?.message ?? '', why);
      assert.doesNotMatch(report.setup?.message ?? '', /Cannot connect/);
    }
  });
});
