/**
 * What an answer comes to, in words, for the panel's status line and its verdict on the body as
 * typed: the service's code, message and reasons, or for a success whether anything changed.
 */
import { reasonPhrase } from '../../../sandbox/reason-phrases.ts';

/** The members of a success body that say what happened, as the contract names them. */
export interface SuccessMembers {
  changed: string;
  status: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

export function statusWords(status: number): string {
  return `${status} ${reasonPhrase(status) ?? ''}`.trimEnd();
}

/**
 * Where the browser's own parser stops in a body that is no JSON, as a line and a column; the
 * sandbox (like WordPress) names the error but not its place.
 */
export function jsonStopsAt(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    if (position === undefined) return undefined;
    const before = text.slice(0, Number(position)).split('\n');
    return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
  }
}

/**
 * The gist of an answer's body in one phrase: for an error of the service its code, its message
 * and each reason it gives (the parameter's, or the JSON parser's); for a success whether it
 * changed anything and the status now; nothing for a body that is no JSON object (a host's page).
 */
export function bodyGist(body: string, members: SuccessMembers, sentText?: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return '';
  }
  if (!isRecord(value)) return '';
  if (typeof value.code === 'string') {
    const data = isRecord(value.data) ? value.data : {};
    const params = isRecord(data.params) ? Object.values(data.params).filter((reason): reason is string => typeof reason === 'string') : [];
    const jsonError = typeof data.json_error_message === 'string' ? data.json_error_message : undefined;
    const where = jsonError === undefined || sentText === undefined ? undefined : jsonStopsAt(sentText);
    return [
      sentence(value.code),
      ...(typeof value.message === 'string' ? [sentence(value.message)] : []),
      ...params.map(sentence),
      ...(jsonError === undefined ? [] : [sentence(`The JSON parser says: ${jsonError}${where === undefined ? '' : ` (at ${where})`}`)]),
    ].join(' ');
  }
  const said = [members.changed, members.status].filter((name) => name in value).map((name) => `${name}: ${JSON.stringify(value[name])}`);
  return said.length === 0 ? '' : `${said.join(', ')}.`;
}
