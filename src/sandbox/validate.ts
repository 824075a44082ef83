import type { IncomingHttpHeaders } from 'node:http';
import type { Action } from '../lib/actions.ts';
import type { ErrorObject } from '../lib/contract-validator.ts';
import { isRecord } from '../lib/document.ts';
import type { ExecutableContract } from '../lib/executable-contract.ts';
import { listInWords } from '../lib/prose.ts';
import { jsonMediaType } from '../lib/request-body.ts';
import type { Answer, StageResult } from './answer.ts';
import { errorAnswer } from './answer.ts';

/** A request the sandbox can act on: the action, the subscription, and what the action needs. */
export interface ValidRequest {
  action: Action;
  subscriptionId: number;
  /** The target status a chosen transition (`change_status`) names. */
  requestedStatus?: string;
  note?: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads the body as WordPress would: JSON, in UTF-8, declared as `application/json`. PHP's
 * `json_decode` refuses invalid UTF-8, so such a body is invalid JSON too. A body sent with
 * another media type is not read as JSON by WordPress at all; the sandbox says so with the same
 * code instead of pretending every field is missing.
 */
export function parseBody(contract: ExecutableContract, headers: IncomingHttpHeaders, raw: Buffer): StageResult<Record<string, unknown>> {
  const { invalidJson } = contract.errors;
  const mediaType = (headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== jsonMediaType) {
    return { answer: errorAnswer(contract, invalidJson, `The body must be sent as ${jsonMediaType}; it was sent as ${mediaType || 'no media type'}.`) };
  }
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(raw));
  } catch {
    return { answer: errorAnswer(contract, invalidJson, invalidJson.message) };
  }
  // A JSON value that is not an object carries no fields: WordPress finds every parameter missing.
  return { value: isRecord(value) ? value : {} };
}

/**
 * Authentication comes before validation: a caller without this site's key learns nothing about
 * the request's fields, and a missing key is the key's error, not a missing parameter (the
 * document gives the missing key to the 401). openapi/README.md records this order.
 */
export function authenticate(contract: ExecutableContract, body: Record<string, unknown>, apiKey: string): Answer | undefined {
  if (body[contract.model.envelope.credential] === apiKey) return undefined;
  const { invalidKey } = contract.errors;
  return errorAnswer(contract, invalidKey, invalidKey.message);
}

function typeWord(schemaType: unknown): string {
  return Array.isArray(schemaType) ? schemaType.map(String).join(' or ') : String(schemaType);
}

/** A reason for one rejected field, phrased as WordPress's own validation phrases it. */
function reasonFor(field: string, error: ErrorObject, action: Action): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `${field} is not of type ${typeWord(params.type)}.`;
    case 'minimum':
      return `${field} must be greater than or equal to ${String(params.limit)}.`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${String(params.limit)}.`;
    case 'maximum':
      return `${field} must be less than or equal to ${String(params.limit)}.`;
    case 'minLength':
      return `${field} must be at least ${String(params.limit)} character(s) long.`;
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} character(s) long.`;
    case 'enum':
      return `${field} is not one of ${listInWords((params.allowedValues as unknown[]).map(String), 'and')}.`;
    case 'additionalProperties':
      return `${field} is not a field of ${action.identifier}.`;
    default:
      return `${field} is invalid: ${error.message ?? 'it does not match its schema'}.`;
  }
}

/**
 * The second stage: the body against the branch its `action` selects, with the document's JSON
 * Schema. One error per request, as WordPress gives: every missing field in one
 * `rest_missing_callback_param`, else every rejected field, each with its reason, in one
 * `rest_invalid_param`.
 */
export function validateRequest(contract: ExecutableContract, body: Record<string, unknown>): StageResult<ValidRequest> {
  const { envelope, actions } = contract.model;
  const { missingParameter, invalidParameter, paramsMember } = contract.errors;
  const selected = body[envelope.selector];
  const action = typeof selected === 'string' ? contract.action(selected) : undefined;

  const required = action === undefined ? envelope.sharedFields.filter((field) => field.required) : action.fields.filter((field) => field.required);
  const missing = required.map((field) => field.name).filter((name) => !(name in body));
  if (missing.length > 0) {
    return { answer: errorAnswer(contract, missingParameter, `Missing parameter(s): ${missing.join(', ')}`, { [paramsMember]: missing }) };
  }
  if (action === undefined) {
    const reason = `${envelope.selector} is not one of ${listInWords(actions.map((candidate) => candidate.identifier), 'and')}.`;
    return { answer: errorAnswer(contract, invalidParameter, `Invalid parameter(s): ${envelope.selector}`, { [paramsMember]: { [envelope.selector]: reason } }) };
  }

  const validate = contract.requests.schemaAt(action.pointer);
  if (!validate(body)) {
    const reasons: Record<string, string> = {};
    for (const error of validate.errors ?? []) {
      const field =
        error.keyword === 'additionalProperties'
          ? String((error.params as Record<string, unknown>).additionalProperty)
          : error.instancePath.split('/')[1] ?? '';
      if (field !== '' && reasons[field] === undefined) reasons[field] = reasonFor(field, error, action);
    }
    // Every schema error names a field of a flat body; should one not, the action itself is named.
    if (Object.keys(reasons).length === 0) reasons[envelope.selector] = `The body does not match ${action.identifier}.`;
    return { answer: errorAnswer(contract, invalidParameter, `Invalid parameter(s): ${Object.keys(reasons).join(', ')}`, { [paramsMember]: reasons }) };
  }

  const transition = action.transition;
  const requestedStatus = transition.kind === 'chosen' ? body[transition.field] : undefined;
  const note = envelope.note === undefined ? undefined : body[envelope.note];
  return {
    value: {
      action,
      subscriptionId: body[envelope.subject] as number,
      ...(typeof requestedStatus === 'string' ? { requestedStatus } : {}),
      ...(typeof note === 'string' ? { note } : {}),
    },
  };
}
