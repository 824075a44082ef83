import type { Field, ReferenceModel, ResponseRow } from './model.ts';
import { isRecord } from './document.ts';
import { rejectedKeyError } from './error-table.ts';
import { responseWithStatus, successResponse } from './response-lookups.ts';
import { badRequestStatus, conflictStatus, errorDataField, errorStatusMember, internalErrorStatus, notFoundStatus } from './response-names.ts';
import { contractError, exactlyOne } from './schemas.ts';

/**
 * What each member of the success body stands for. The sandbox writes answers with these names
 * and the conformance suite reads them, so neither types a member name of its own.
 */
export interface ResultShape {
  /** The boolean that is always `true` in a success. */
  successFlag: string;
  /** Echoes the action sent. */
  action: string;
  /** Echoes the subscription's ID. */
  subject: string;
  /** The status before the request. */
  previousStatus: string;
  /** The status after the request. */
  status: string;
  /** `false` when the status the action leads to already held. */
  changed: string;
}

/** One error the service answers: its status, its code, and its fixed message where it has one. */
export interface ServiceError {
  status: number;
  code: string;
  /** The message of the document's example for this code, when the code's message never varies. */
  message: string;
}

/** Every error the service itself answers, by the situation that causes it. */
export interface ServiceErrors {
  invalidJson: ServiceError;
  missingParameter: ServiceError;
  invalidParameter: ServiceError;
  invalidKey: ServiceError;
  subscriptionNotFound: ServiceError;
  noRoute: ServiceError;
  transitionNotAllowed: ServiceError;
  internalError: ServiceError;
  /** The member of `data` that repeats the HTTP status. */
  statusMember: string;
  /** The member of a 400's `data` that names the fields involved. */
  paramsMember: string;
  /** The members of a 409's `data`: the subscription's status and the actions it accepts. */
  currentStatusMember: string;
  allowedActionsMember: string;
}

/**
 * WordPress core's own error codes, which the plugin's endpoint answers like any REST route
 * (`WP_REST_Server` and `WP_REST_Request`). The service's own codes are not typed here: each is
 * the only code of its status in the document, or the 404 code that is not WordPress's.
 */
const wordPressCodes = {
  invalidJson: 'rest_invalid_json',
  missingParameter: 'rest_missing_callback_param',
  invalidParameter: 'rest_invalid_param',
  noRoute: 'rest_no_route',
} as const;

/** Reads which member of the success body is which, checking each against the document's examples. */
export function readResultShape(model: ReferenceModel): ResultShape {
  const success = successResponse(model.responses);
  // The members are written in the body's schema, where a problem of them is fixed.
  const body = success.body?.pointer ?? success.pointer;
  const fields = model.resultFields;
  const named = (name: string, role: string): string => {
    if (!fields.some((field) => field.name === name)) {
      throw contractError(body, `the success body has no \`${name}\` member (${role})`);
    }
    return name;
  };
  const isBoolean = (field: Field) => field.type === 'boolean';
  const isConstant = (field: Field) => field.constraints.some((constraint) => constraint.keyword === 'const');
  const successFlag = exactlyOne(fields.filter((field) => isBoolean(field) && isConstant(field)), body, 'constant boolean member (the success flag)', (field) => field.name);
  const changed = exactlyOne(fields.filter((field) => isBoolean(field) && !isConstant(field)), body, 'boolean member that is not a constant (changed)', (field) => field.name);

  const states = new Set(model.lifecycle.states);
  const statusFields = fields.filter((field) =>
    field.constraints.some(
      (constraint) => constraint.keyword === 'enum' && constraint.values?.length === states.size && constraint.values.every((value) => states.has(String(value))),
    ),
  );
  if (statusFields.length !== 2) {
    throw contractError(body, `the success body is expected to carry two subscription statuses (before and after), found ${statusFields.map((field) => field.name).join(', ') || 'none'}`);
  }
  // The member that holds the target of a fixed transition in that action's example is the status after.
  const fixed = model.actions.find((action) => action.transition.kind === 'fixed');
  const example = fixed?.successExample.value;
  if (fixed === undefined || fixed.transition.kind !== 'fixed' || !isRecord(example)) {
    throw contractError(success.pointer, 'no success example of an action with a fixed target tells the status before from the status after');
  }
  const target = fixed.transition.to;
  const after = exactlyOne(statusFields.filter((field) => example[field.name] === target), success.pointer, `status member holding \`${target}\` in the \`${fixed.identifier}\` example (the status after)`, (field) => field.name);
  const before = statusFields.find((field) => field !== after);
  if (before === undefined) throw contractError(success.pointer, 'the success body has no status before the request');

  return {
    successFlag: successFlag.name,
    action: named(model.envelope.selector, 'the action echoed'),
    subject: named(model.envelope.subject, 'the subscription echoed'),
    previousStatus: before.name,
    status: after.name,
    changed: changed.name,
  };
}

function errorOf(response: ResponseRow, code: string): ServiceError {
  if (!response.errorCodes.some((candidate) => candidate.code === code)) {
    throw contractError(response.pointer, `the ${response.status} response does not list the code \`${code}\``);
  }
  const example = response.examples.find((candidate) => isRecord(candidate.value) && candidate.value.code === code);
  const message = isRecord(example?.value) && typeof example.value.message === 'string' ? example.value.message : '';
  return { status: Number(response.status), code, message };
}

function onlyCode(response: ResponseRow, meaning: string): ServiceError {
  const { code } = exactlyOne(response.errorCodes, response.pointer, `error code (${meaning})`, (error) => error.code);
  return errorOf(response, code);
}

/** The members of an error body's `data`, as the response's body fields already hold them. */
function dataFields(response: ResponseRow): Field[] {
  if (response.body === undefined) throw contractError(response.pointer, `the ${response.status} response has no JSON body`);
  const data = response.bodyFields.find((field) => field.name === errorDataField);
  if (data === undefined) throw contractError(response.body.pointer, `the ${response.status} body has no \`${errorDataField}\` member`);
  return data.members;
}

/** Reads every error the service answers, and the members their details carry, from the document. */
export function readServiceErrors(model: ReferenceModel): ServiceErrors {
  const { responses } = model;
  const badRequest = responseWithStatus(responses, badRequestStatus, 'to a body that cannot be used');
  const notFound = responseWithStatus(responses, notFoundStatus, 'to an unknown subscription or route');
  const conflict = responseWithStatus(responses, conflictStatus, 'to an action the current status refuses');
  const internal = responseWithStatus(responses, internalErrorStatus, 'when the plugin fails');
  const noRoute = errorOf(notFound, wordPressCodes.noRoute);
  const notFoundCodes = notFound.errorCodes.filter((error) => error.code !== noRoute.code);
  const subscriptionNotFound = errorOf(notFound, exactlyOne(notFoundCodes, notFound.pointer, 'code besides WordPress\'s own (the unknown subscription)', (error) => error.code).code);
  const rejectedKey = rejectedKeyError(responses);

  const paramsMember = exactlyOne(
    dataFields(badRequest).filter((field) => field.name !== errorStatusMember && field.type.includes('array')),
    badRequest.pointer,
    `list member of \`${errorDataField}\` besides \`${errorStatusMember}\` (the fields involved)`,
    (field) => field.name,
  );
  const conflictData = dataFields(conflict);
  const states = new Set(model.lifecycle.states);
  const currentStatus = exactlyOne(
    conflictData.filter((field) => field.constraints.some((constraint) => constraint.keyword === 'enum' && constraint.values?.every((value) => states.has(String(value))) === true)),
    conflict.pointer,
    `member of \`${errorDataField}\` holding a subscription status (the current status)`,
    (field) => field.name,
  );
  const allowedActions = exactlyOne(
    conflictData.filter((field) => field.type.startsWith('array')),
    conflict.pointer,
    `list member of \`${errorDataField}\` (the allowed actions)`,
    (field) => field.name,
  );

  return {
    invalidJson: errorOf(badRequest, wordPressCodes.invalidJson),
    missingParameter: errorOf(badRequest, wordPressCodes.missingParameter),
    invalidParameter: errorOf(badRequest, wordPressCodes.invalidParameter),
    invalidKey: { ...errorOf(responseWithStatus(responses, rejectedKey.status, 'to a wrong key'), rejectedKey.code) },
    subscriptionNotFound,
    noRoute,
    transitionNotAllowed: onlyCode(conflict, 'the refused transition'),
    internalError: onlyCode(internal, 'the plugin failed'),
    statusMember: errorStatusMember,
    paramsMember: paramsMember.name,
    currentStatusMember: currentStatus.name,
    allowedActionsMember: allowedActions.name,
  };
}
