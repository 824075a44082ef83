import type { Action, ReferenceModel } from './model.ts';
import { isRecord } from './document.ts';
import { allowedActions } from './lifecycle.ts';
import { throttledResponse } from './response-lookups.ts';
import { conflictStatus, errorCodeField, errorDataField, retryAfterHeader } from './response-names.ts';

/** One error answer an action page shows, with the body a client receives. */
export interface ErrorBody {
  status: string;
  summary: string;
  value: unknown;
  /** True when the body was derived from the document's example for this action, rather than quoted. */
  derived: boolean;
}

export interface ActionErrorAnswers {
  bodies: ErrorBody[];
  /** The refused statuses beyond the one the 409 body shows. */
  otherRefusedStates: string[];
  /** The host's 429: no body contract, only the header and its example values. */
  throttled: { status: string; header: string; examples: string[] };
}

function codeOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value[errorCodeField] === 'string' ? value[errorCodeField] : undefined;
}

/** Every string inside a JSON value, keys included. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => [key, ...stringsIn(item)]);
  return [];
}

function replaceInStrings(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceInStrings(item, replace));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [replace(key), replaceInStrings(item, replace)]));
  return value;
}

const wholeWord = (identifier: string): RegExp => new RegExp(`(?<![\\w-])${identifier.replace(/[-]/g, '\\-')}(?![\\w-])`, 'g');

/**
 * An error example the document shares between every action may name one action: the unknown
 * field example says which action does not accept the field. On another action's page it is put
 * in that action's name, so no page quotes a refusal of some other action. An example that names
 * several actions (the list of every action) is about none of them and stays as it is.
 */
export function exampleForAction(value: unknown, identifiers: readonly string[], action: string): { value: unknown; retargeted: boolean } {
  const text = stringsIn(value);
  const named = identifiers.filter((identifier) => text.some((line) => wholeWord(identifier).test(line)));
  const [only] = named;
  if (named.length !== 1 || only === undefined || only === action) return { value, retargeted: false };
  return { value: replaceInStrings(value, (line) => line.replace(wholeWord(only), action)), retargeted: true };
}

/**
 * The 409 this action answers from `current`: the document's refusal example with this action,
 * this status and the actions the status allows put in, the way the example words them.
 */
function conflictBody(model: ReferenceModel, action: Action, current: string): unknown {
  const conflict = model.responses.find((response) => response.status === conflictStatus);
  const template = conflict?.examples[0]?.value;
  if (!isRecord(template) || !isRecord(template[errorDataField])) return undefined;
  const data = template[errorDataField];
  const exampleStatus = String(data.current_status);
  const exampleAction = model.actions.map((candidate) => candidate.identifier).find((identifier) => String(template.message).includes(identifier));
  let message = String(template.message);
  if (exampleAction !== undefined) message = message.replace(exampleAction, action.identifier);
  message = message.replace(new RegExp(`\\b${exampleStatus.replace(/[-]/g, '\\-')}\\b(?=\\.?$)`), current);
  return { ...template, message, [errorDataField]: { ...data, current_status: current, allowed_actions: allowedActions(model.lifecycle, current) } };
}

/**
 * Every error answer an action can get, as the page shows it: the document's examples of each
 * error status the action can answer (only those whose code is one of the action's), the 409 for
 * this action's own first refused status, and the host's 429 with its header.
 */
export function actionErrorAnswers(model: ReferenceModel, action: Action): ActionErrorAnswers {
  const bodies: ErrorBody[] = [];
  let conflictShown: string | undefined;
  const statuses = [...new Set(action.errors.map((error) => error.status))];
  for (const status of statuses) {
    const codes = new Set(action.errors.filter((error) => error.status === status).map((error) => error.code));
    const response = model.responses.find((candidate) => candidate.status === status);
    if (response === undefined || response.body === undefined) continue;
    if (status === conflictStatus) {
      // The document's own refusal of this action when it has one, else one derived from it.
      const own = response.examples.find((example) => isRecord(example.value) && new RegExp(`\\b${action.identifier}\\b`).test(String(example.value.message)));
      const ownStatus = isRecord(own?.value) && isRecord(own.value[errorDataField]) ? String(own.value[errorDataField].current_status) : undefined;
      const shown = ownStatus ?? action.refusedStates[0];
      const value = own?.value ?? (shown === undefined ? undefined : conflictBody(model, action, shown));
      if (shown !== undefined && value !== undefined) {
        bodies.push({ status, summary: own?.summary ?? `${action.identifier} refused from ${shown}`, value, derived: own === undefined });
        conflictShown = shown;
      }
      continue;
    }
    const identifiers = model.actions.map((candidate) => candidate.identifier);
    for (const example of response.examples) {
      const code = codeOf(example.value);
      if (code === undefined || !codes.has(code)) continue;
      const { value, retargeted } = exampleForAction(example.value, identifiers, action.identifier);
      bodies.push({ status, summary: example.summary, value, derived: retargeted });
    }
  }
  const throttledRow = throttledResponse(model.responses);
  const header = throttledRow.headers.find((candidate) => candidate.name === retryAfterHeader);
  return {
    bodies,
    otherRefusedStates: action.refusedStates.filter((state) => state !== conflictShown),
    throttled: { status: throttledRow.status, header: retryAfterHeader, examples: (header?.examples ?? []).map((example) => String(example.value)) },
  };
}
