/**
 * How the panel writes an exchange for a reader: the request as sent and the answer as received,
 * as an HTTP/1.1 client would show them, and the curl command that sends the same request.
 */
import { shellQuote } from '../../../lib/samples/shell-quote.ts';
import { reasonPhrase } from '../../../sandbox/reason-phrases.ts';

export interface SentRequest {
  method: string;
  /** The base URL the reader gave, without a trailing slash: `https://shop.example`, `http://127.0.0.1:8787`. */
  baseUrl: string;
  target: string;
  /** Header names as written on the request. */
  headers: [string, string][];
  body: string;
}

export interface ReceivedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A base URL as the reader types it: a host (`shop.example`), or a whole URL with its scheme. */
export function baseUrlOf(typed: string, example: string): string {
  const value = typed.trim() === '' ? example : typed.trim();
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  return withScheme.replace(/\/+$/, '');
}

export function requestText(request: SentRequest): string {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\n')}\n\n${request.body}`;
}

/** Header names as WordPress and Node write them on the wire: each word capitalised. */
function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

export function answerText(answer: ReceivedAnswer): string {
  const status = `HTTP/1.1 ${answer.status} ${reasonPhrase(answer.status) ?? ''}`.trimEnd();
  const headers = Object.entries(answer.headers).map(([name, value]) => `${displayName(name)}: ${value}`);
  return `${[status, ...headers].join('\n')}\n\n${answer.body}`;
}

/** The curl command that sends exactly this request: same method, URL, headers and body bytes. */
export function curlCommand(request: SentRequest): string {
  const headers = request.headers.filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()));
  return [
    `curl --include \\`,
    `  --request ${request.method} ${shellQuote(`${request.baseUrl}${request.target}`)} \\`,
    ...headers.map(([name, value]) => `  --header ${shellQuote(`${name}: ${value}`)} \\`),
    `  --data-binary ${shellQuote(request.body)}`,
  ].join('\n');
}
