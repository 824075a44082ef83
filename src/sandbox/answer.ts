import type { ServiceError } from '../lib/contract/response-shapes.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { jsonMediaType } from '../lib/contract/request-body.ts';
import { escapeMarkup } from '../lib/http/escape-markup.ts';
import { reasonPhrase } from './reason-phrases.ts';

/** What the sandbox sends back: a status, its headers and the body, already serialised. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a stage hands on: the value the next stage needs, or the answer that ends the request. */
export type StageResult<T> = { value: T } | { answer: Answer };

/** WordPress sends its REST answers as UTF-8 JSON and says so. */
const jsonContentType = `${jsonMediaType}; charset=UTF-8`;

export function jsonAnswer(status: number, value: unknown): Answer {
  return { status, headers: { 'content-type': jsonContentType }, body: JSON.stringify(value) };
}

/** The WordPress error envelope: the code, a message for people, and the details with the status. */
export function errorAnswer(
  contract: ExecutableContract,
  error: ServiceError,
  message: string,
  details: Record<string, unknown> = {},
): Answer {
  return jsonAnswer(error.status, {
    code: error.code,
    message,
    data: { [contract.errors.statusMember]: error.status, ...details },
  });
}

/**
 * An answer of the hosting environment rather than of the service: a short HTML page, as a web
 * server, firewall or CDN sends. The document gives such answers no body contract.
 */
export function hostAnswer(status: number, explanation: string, headers: Record<string, string> = {}): Answer {
  const title = `${status} ${reasonPhrase(status) ?? 'Error'}`;
  const body = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<h1>${title}</h1>
<p>${escapeMarkup(explanation)}</p>
<hr><p>sandbox host</p>
</body>
</html>
`;
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}
