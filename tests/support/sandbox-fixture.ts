import type { ReceivedAnswer } from '../../src/conformance/check-answer.ts';
import { bodyLimitBytes } from '../../src/sandbox/host.ts';
import { defaultPort, type LocalSandbox, type Sandbox } from '../../src/sandbox/server.ts';

export interface SendOptions {
  headers?: Record<string, string>;
  method?: string;
  path?: string;
  raw?: string | Uint8Array;
}

export type SentAnswer = ReceivedAnswer & { json: () => Record<string, unknown> };

function received(status: number, headers: Record<string, string>, text: string): SentAnswer {
  return { status, headers, body: text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/**
 * Sends a request to a sandbox and returns the answer as the suite reads it: over real HTTP to
 * one that `startSandbox` serves, or through `answer` in this process to one that `openSandbox`
 * opened, with the headers and body a `fetch` would send.
 */
export async function send(sandbox: Pick<Sandbox, 'url' | 'contract'> | Pick<LocalSandbox, 'answer' | 'basePath' | 'contract'>, body: unknown, options: SendOptions = {}): Promise<SentAnswer> {
  const { endpoint } = sandbox.contract.model;
  const method = options.method ?? endpoint.method;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const payload = options.raw === undefined ? JSON.stringify(body) : typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
  const headers = { 'content-type': 'application/json', ...options.headers };
  if ('answer' in sandbox) {
    const bytes = hasBody ? Buffer.from(payload) : Buffer.alloc(0);
    const lowerCased = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const answer = sandbox.answer({
      method,
      target: `${sandbox.basePath}${options.path ?? endpoint.urlPath}`,
      headers: { host: `127.0.0.1:${defaultPort}`, ...lowerCased, ...(hasBody ? { 'content-length': String(bytes.length) } : {}) },
      body: bytes.subarray(0, bodyLimitBytes),
      tooLarge: bytes.length > bodyLimitBytes,
    });
    const answerHeaders = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return received(answer.status, { ...answerHeaders, 'content-length': String(Buffer.byteLength(answer.body)) }, method === 'HEAD' ? '' : answer.body);
  }
  const response = await fetch(`${sandbox.url}${options.path ?? endpoint.urlPath}`, { method, headers, ...(hasBody ? { body: payload } : {}) });
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    answerHeaders[name] = value;
  });
  return received(response.status, answerHeaders, await response.text());
}

/** A valid body for an action on a subscription, from the document's own example, with the sandbox's key. */
export function validBody(
  sandbox: Pick<Sandbox, 'contract' | 'apiKey'> | Pick<LocalSandbox, 'contract' | 'apiKey'>,
  identifier: string,
  subscriptionId: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const { envelope } = sandbox.contract.model;
  const action = sandbox.contract.action(identifier);
  if (action === undefined) throw new Error(`the document has no action ${identifier}`);
  return { ...action.requestExample.value, [envelope.credential]: sandbox.apiKey, [envelope.subject]: subscriptionId, ...extra };
}
