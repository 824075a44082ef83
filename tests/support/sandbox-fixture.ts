import type { ReceivedAnswer } from '../../src/conformance/check-answer.ts';
import type { Sandbox } from '../../src/sandbox/server.ts';

/** Sends a request to a sandbox over real HTTP and returns the answer as the suite reads it. */
export async function send(
  sandbox: Pick<Sandbox, 'url' | 'contract'>,
  body: unknown,
  options: { headers?: Record<string, string>; method?: string; path?: string; raw?: string | Uint8Array } = {},
): Promise<ReceivedAnswer & { json: () => Record<string, unknown> }> {
  const { endpoint } = sandbox.contract.model;
  const method = options.method ?? endpoint.method;
  const response = await fetch(`${sandbox.url}${options.path ?? endpoint.urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(method === 'GET' || method === 'HEAD'
      ? {}
      : { body: options.raw === undefined ? JSON.stringify(body) : typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw) }),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await response.text();
  return { status: response.status, headers, body: text, json: () => JSON.parse(text) as Record<string, unknown> };
}
