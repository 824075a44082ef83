/** The parts every language's sample is written with: the comments, the names and the URL. */
import { isRecord } from '../contract/document.ts';
import type { Endpoint } from '../contract/model.ts';
import { fillUrl, plainPermalinkUrl } from '../contract/endpoint.ts';
import { listInWords } from '../prose.ts';
import type { SampleStatuses } from './sample-statuses.ts';

/**
 * The comment before a single-shot sample reads the answer: which answers are the service's, and
 * where the retry policy is (the retrying client of the errors guide follows it).
 */
export function answerComment(marker: string, statuses: SampleStatuses): string {
  return `${marker} Not JSON with a "${statuses.codeField}"? The host answered, not the service. Retrying: see the errors guide.`;
}

/** A name a program can use for a server variable (`site`). */
export function variableName(name: string): string {
  const cleaned = name.replace(/[^\w]/g, '_');
  return /^\d/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** Values in an example that are placeholders for the reader to replace, such as `<API_KEY>`. */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return /^<[A-Z][A-Z0-9_]*>$/.test(value) ? [value] : [];
  if (Array.isArray(value)) return [...new Set(value.flatMap(placeholdersIn))];
  if (isRecord(value)) return [...new Set(Object.values(value).flatMap(placeholdersIn))];
  return [];
}

/** How the comment that names what a sample needs filled in begins; the request builder leaves that comment as written. */
export const fillInLead = 'Fill in your own values:';

/** The comment that opens a sample: which values the reader must replace. */
export function fillInComment(marker: string, things: string[]): string {
  return `${marker} ${fillInLead} ${listInWords(things, 'and')}.`;
}

export function thingsToFillIn(endpoint: Endpoint, body: unknown): string[] {
  return [
    ...endpoint.variables.map((variable) => variableName(variable.name)),
    ...placeholdersIn(body).map((placeholder) => `${placeholder} in the body`),
  ];
}

/** The server variables declared the way the language declares a value. */
export function variableDeclarations(endpoint: Endpoint, declare: (name: string, value: string) => string): string {
  return endpoint.variables.map((variable) => declare(variableName(variable.name), variable.defaultValue)).join('\n');
}

/** The endpoint URL with each server variable spliced in the way the language interpolates. */
export function interpolatedUrl(endpoint: Endpoint, splice: (name: string) => string): string {
  return fillUrl(endpoint.urlTemplate, (name) => splice(variableName(name)));
}

/** How the line that gives a site without pretty permalinks its URL begins, after the comment marker. */
export const plainPermalinkLead = 'Without pretty permalinks, send to';

/**
 * The comment line, ending in a line break, that gives the URL on a site without pretty
 * permalinks (`?rest_route=`), spliced as the sample splices the site; empty where the endpoint
 * is no WordPress REST route.
 */
export function plainPermalinkComment(marker: string, endpoint: Endpoint, splice: (name: string) => string): string {
  const plain = plainPermalinkUrl(endpoint.urlTemplate);
  return plain === undefined ? '' : `${marker} ${plainPermalinkLead} ${fillUrl(plain, (name) => splice(variableName(name)))} instead.\n`;
}
