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

let server: Server;
let baseUrl: string;
/** What the server answers, by request path. */
const answers = new Map<string, () => string | Buffer>();

before(async () => {
  server = createServer((request, response) => {
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
});
