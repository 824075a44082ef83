/**
 * How the panel writes an exchange for a reader: the request as sent and the answer as received,
 * as an HTTP/1.1 client would show them, and the curl command that sends the same request.
 */
import { retryPolicy } from '../../../lib/samples/retry-policy.ts';
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

/** The status line and the body: what the reader looks for first. */
export function answerText(answer: ReceivedAnswer): string {
  return `HTTP/1.1 ${answer.status} ${reasonPhrase(answer.status) ?? ''}`.trimEnd() + `\n\n${answer.body}`;
}

/** The answer's headers, named as the Node sandbox sends them (in lower case, as Node's server writes what it is given). */
export function answerHeadersText(answer: ReceivedAnswer): string {
  return Object.entries(answer.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/**
 * Above this many bytes the body goes to curl on its standard input: one argument of a command
 * may hold at most 128 KiB on Linux (MAX_ARG_STRLEN), quoting included.
 */
export const largestBodyArgument = 100_000;

/** A heredoc delimiter that is no line of the body. */
function delimiterFor(body: string): string {
  const lines = new Set(body.split('\n'));
  let delimiter = 'REQUEST_BODY';
  while (lines.has(delimiter)) delimiter = `${delimiter}_`;
  return delimiter;
}

/**
 * The curl command that sends exactly this request: same method, URL, headers and body bytes, with
 * the retry policy's timeouts, as every sample has. A large body (the 413 demonstration) comes from
 * a quoted heredoc, which adds one line break after it: whitespace a JSON body may end with.
 */
export function curlCommand(request: SentRequest): string {
  const headers = request.headers.filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()));
  const lines = [
    `curl --include \\`,
    `  --connect-timeout ${retryPolicy.connectTimeoutSeconds} --max-time ${retryPolicy.attemptTimeoutSeconds} \\`,
    `  --request ${request.method} ${shellQuote(`${request.baseUrl}${request.target}`)} \\`,
    ...headers.map(([name, value]) => `  --header ${shellQuote(`${name}: ${value}`)} \\`),
  ];
  if (new TextEncoder().encode(request.body).length <= largestBodyArgument) return [...lines, `  --data-binary ${shellQuote(request.body)}`].join('\n');
  const delimiter = delimiterFor(request.body);
  return [...lines, `  --data-binary @- <<'${delimiter}'`, request.body, delimiter].join('\n');
}
