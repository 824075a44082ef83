import type { Exchange } from './client.ts';

/** What the report prints in place of the key. */
export const keyPlaceholder = '<API_KEY>';

/**
 * The key as a request or an answer may carry it: as is, encoded in a URL or a form body, escaped
 * in a JSON string (`json_encode` escapes `/` too), so that none of them is printed.
 */
function keySpellings(apiKey: string): string[] {
  const json = JSON.stringify(apiKey).slice(1, -1);
  const spellings = [apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2), json, json.replaceAll('/', '\\/')];
  // The longest first, so that a spelling holding another is replaced whole.
  return [...new Set(spellings)].filter((spelling) => spelling !== '').sort((left, right) => right.length - left.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text with the key, in each of its spellings and in any case, replaced by the placeholder;
 * the key less its last character too, which tells all but one character of it.
 */
export function hideKey(text: string, apiKey: string): string {
  const spellings = keySpellings(apiKey);
  if (spellings.length === 0) return text;
  const shown = text.replace(new RegExp(spellings.map(escapeRegExp).join('|'), 'gi'), keyPlaceholder);
  const prefix = apiKey.slice(0, -1);
  return prefix.length < 7 ? shown : shown.replace(new RegExp(escapeRegExp(prefix), 'gi'), '<API_KEY less its last character>');
}

/** A request's text with the key hidden, and a JSON string holding only the key's first character too. */
function hideKeyInRequest(text: string, apiKey: string): string {
  const first = apiKey.slice(0, 1);
  const hidden = hideKey(text, apiKey);
  return first === '' ? hidden : hidden.split(JSON.stringify(first)).join('"<API_KEY\'s first character>"');
}

/** Shows a request as the report prints it, with the key replaced by the placeholder. */
export function describeRequest(exchange: Pick<Exchange, 'url' | 'request'>, apiKey: string): string {
  const { request } = exchange;
  const hidden = (text: string) => hideKeyInRequest(text, apiKey);
  const extraHeaders = Object.entries(request.headers)
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, value]) => ` [${name}: ${hidden(value)}]`)
    .join('');
  let body = '';
  if (typeof request.body === 'string') body = ` ${hidden(request.body)}`;
  else if (request.body !== undefined) body = ` <${request.body.length} bytes: ${Buffer.from(request.body).toString('hex')}>`;
  if (body.length > 300) body = `${body.slice(0, 300)}…`;
  return `${request.method} ${hidden(exchange.url)}${extraHeaders}${body}`;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsaquo: '›', lsaquo: '‹', hellip: '…', ndash: '–', mdash: '—' };
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (entity: string, name: string) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(Number.parseInt(name.slice(2), 16) % 0x110000);
    if (/^#\d/.test(name)) return String.fromCodePoint(Number(name.slice(1)) % 0x110000);
    return named[name.toLowerCase()] ?? entity;
  });
}

/**
 * An HTML page in a line: its `<title>` and the first text of its `<body>`, without the styles and
 * scripts that fill the head of a page such as WordPress's "critical error" one.
 */
export function htmlSummary(html: string): string | undefined {
  if (!/^\s*(<!doctype html|<html|<head|<body|<br|<b>|<p>|<div)/i.test(html)) return undefined;
  const text = (part: string) =>
    decodeEntities(part.replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' ').replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const bodyStart = /<body\b[^>]*>/i.exec(html);
  const body = text(bodyStart === null ? html.replace(/<head\b[\s\S]*?<\/head\s*>/i, ' ').replace(/<title\b[\s\S]*?<\/title\s*>/i, ' ') : html.slice(bodyStart.index + bodyStart[0].length));
  const shownBody = body.length > 200 ? `${body.slice(0, 200)}…` : body;
  const parts = [...(title === undefined || text(title) === '' ? [] : [`title "${text(title)}"`]), ...(shownBody === '' ? [] : [`body "${shownBody}"`])];
  return parts.length === 0 ? undefined : `HTML page: ${parts.join(', ')}`;
}

/** An answer's body in a line or a few: an HTML page as its title and first text, anything else cut at `limit` characters; the key hidden. */
export function answerBodyText(body: string, apiKey: string, limit: number): string {
  const shown = htmlSummary(body) ?? (body.length > limit ? `${body.slice(0, limit)}…` : body);
  return hideKey(shown, apiKey);
}

/** An exchange's answer in one line, for the set-up's messages; the key hidden. */
export function answerSummary(exchange: Exchange, apiKey: string): string {
  if (exchange.answer === undefined) return hideKey(exchange.failure ?? 'no answer', apiKey);
  return `${exchange.answer.status} ${answerBodyText(exchange.answer.body.replace(/\s+/g, ' ').trim(), apiKey, 160)}`;
}
