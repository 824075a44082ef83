import type { Action, NamedExample, ReferenceModel } from './model.ts';
import { loadReferenceModel, readReferenceModel } from './actions.ts';
import type { OpenApiDocument } from './document.ts';
import { plainPermalinkUrl } from './endpoint.ts';
import { acceptedStates } from './lifecycle.ts';
import { jsonMediaType } from './request-body.ts';
import { readResultShape } from './response-shapes.ts';
import { documentedError, errorEnvelope, rejectedKeyError } from './error-table.ts';
import { refusalDetails, unknownFieldAnswer } from './refusal-details.ts';
import { responseWithStatus, serviceFailureResponse, successResponse, throttledResponse } from './response-lookups.ts';
import { conflictStatus, errorCodeField, noRouteErrorCode, retryAfterHeader } from './response-names.ts';
import { childPointer, contractError, exactlyOne } from './schemas.ts';

/**
 * The facts the hand-written guides mention, each taken from the reference model, so a guide and
 * the generated reference can never read the contract differently. A guide names a fact
 * (`<Fact name="credentialField" />`) instead of typing its value, so a change in `openapi/`
 * reaches every guide with the next build; a document that no longer says it makes the build
 * fail with a `ContractError` naming the place.
 */
export interface Facts {
  /** HTTP method of the one operation, e.g. `POST`. */
  method: string;
  /** Server URL plus path, with the site variable left in, e.g. `https://{site}/…/action`. */
  endpointUrlTemplate: string;
  /** The endpoint URL with the site variable replaced by its (reserved example) default. */
  exampleEndpointUrl: string;
  /** The same route on a site without pretty permalinks: `https://{site}/?rest_route=/…/action`. */
  plainPermalinkUrlTemplate: string;
  /** Path part of the endpoint URL, e.g. `/wp-json/service/v1/action`. */
  endpointPath: string;
  /** Name of the server variable that stands for the operator's host, written `{site}`. */
  siteVariable: string;
  /** Default of that variable: a reserved example host. */
  siteExample: string;
  /** The path segment that carries the version, e.g. `v1`. */
  versionSegment: string;
  /** The path prefix up to and including the version segment, e.g. `/wp-json/service/v1/`. */
  versionNamespace: string;
  /** `info.version` of the document. */
  documentVersion: string;
  /** The one string besides the selector that every action's request schema requires: the API key. */
  credentialField: string;
  /** The discriminator property that selects the action. */
  actionField: string;
  /** The other field every action requires: the subscription it acts on. */
  subscriptionField: string;
  /** Action identifiers, in the order of the request body's `oneOf`. */
  actions: string[];
  actionCount: number;
  /** Subscription states, in the order of their enumeration. */
  states: string[];
  stateCount: number;
  /** States no action leads out of. */
  finalStates: string[];
  /** Status code of the success response. */
  successStatus: string;
  /** Status codes of the error responses, in the order the operation lists them. */
  errorStatuses: string[];
  /** Every error code the error bodies can carry. */
  errorCodes: string[];
  /** Fields every error body has, e.g. `code`, `message`, `data`. */
  errorEnvelopeFields: string[];
  /** The error-body field that holds the machine-readable code. */
  errorCodeField: string;
  /** The error code (and its status) for a missing or wrong API key, and when the contract says it is sent (Markdown). */
  credentialErrorCode: string;
  credentialErrorStatus: string;
  credentialErrorWhen: string;
  /** Status of the refusal sent when the current state does not accept the action. */
  transitionRefusedStatus: string;
  /** Where a refusal names the subscription's status and the actions that would change it, e.g. `data.allowed_actions`. */
  refusalCurrentStatusField: string;
  refusalAllowedActionsField: string;
  /** Status of the service's own failure, after which nothing was changed. */
  serviceFailureStatus: string;
  /** The answer to a field (or an action) the shop's release does not know: status, code, and where it names the field. */
  unknownFieldErrorStatus: string;
  unknownFieldErrorCode: string;
  unknownFieldNamedIn: string;
  /** WordPress's answer to a method or path it has no route for, such as a POST turned into a GET by a redirect. */
  noRouteErrorCode: string;
  noRouteErrorStatus: string;
  /** The success-body boolean that tells whether anything changed. */
  changedField: string;
  /** Status of the response that declares `Retry-After`: the rate limit. */
  rateLimitStatus: string;
  /** The header that tells how long to wait. */
  retryAfterHeader: string;
  /** The header's examples, one per form (delay in seconds, HTTP date). */
  retryAfterSecondsExample: string;
  retryAfterDateExample: string;
  /** The action the quickstart walks through: the one the document shows repeated. */
  quickstartAction: string;
  /** States the quickstart action accepts. */
  quickstartFromStates: string[];
}

export type FactName = keyof Facts;

/** Example bodies the quickstart shows, exactly as the document has them. */
export interface QuickstartExamples {
  request: Record<string, unknown>;
  response: unknown;
  repeatedResponse: unknown;
}

/** The name of the success example that shows an action sent a second time. */
const repeatedExampleName = 'repeated_action';

/**
 * The action the quickstart walks through, with the answer to its repetition. The document shows
 * one action sent twice (`repeated_action`); the quickstart uses that action, so it can show
 * both the first answer and the answer to a retry.
 */
function quickstartOf(model: ReferenceModel): { action: Action; repeated: NamedExample } {
  const found = model.actions.flatMap((action) =>
    action.moreSuccessExamples.filter((example) => example.name === repeatedExampleName).map((repeated) => ({ action, repeated })),
  );
  const success = successResponse(model.responses);
  const pointer = childPointer(success.pointer, 'content', jsonMediaType, 'examples', repeatedExampleName);
  const quickstart = exactlyOne(found, pointer, `\`${repeatedExampleName}\` success example of a known action`, ({ action }) => action.identifier);
  // The sandbox guide sends the quickstart's action once more to a subscription it refuses, to show the 409.
  if (quickstart.action.refusedStates.length === 0) {
    throw contractError(pointer, `repeats ${quickstart.action.identifier}, which refuses no status, so the guides cannot show the conflict its repetition leads to`);
  }
  return quickstart;
}

/** The request and the two answers the quickstart shows. */
export function quickstartExamples(model: ReferenceModel): QuickstartExamples {
  const { action, repeated } = quickstartOf(model);
  return { request: action.requestExample.value, response: action.successExample.value, repeatedResponse: repeated.value };
}

/** Takes every fact the guides use from the reference model. */
export function factsOf(model: ReferenceModel): Facts {
  const { endpoint, envelope, lifecycle, responses } = model;
  const site = exactlyOne(endpoint.variables, '#/servers/0/variables', 'server variable (the site)', (variable) => variable.name);
  const actions = model.actions.map((action) => action.identifier);

  const success = successResponse(responses);
  // The one reader of which member of the success body is which.
  const changed = { name: readResultShape(model).changed };
  const rejectedKey = rejectedKeyError(responses);

  const throttled = throttledResponse(responses);
  const retryAfter = throttled.headers.find((header) => header.name === retryAfterHeader);
  const exampleOf = (type: 'number' | 'string', form: string): string => {
    const example = retryAfter?.examples.find((candidate) => typeof candidate.value === type);
    if (example === undefined) throw contractError(throttled.pointer, `the ${retryAfterHeader} header has no example ${form}`);
    return String(example.value);
  };

  const quickstart = quickstartOf(model).action;
  const plainPermalinks = plainPermalinkUrl(endpoint.urlTemplate);
  if (plainPermalinks === undefined) throw contractError('#/servers/0', 'the endpoint URL does not use WordPress\'s `/wp-json/` prefix');
  const refusal = refusalDetails(responses, lifecycle.states);
  const unknownField = unknownFieldAnswer(responses);
  const noRoute = documentedError(responses, noRouteErrorCode, 'the answer to a method or path without a route');

  return {
    method: endpoint.method,
    endpointUrlTemplate: endpoint.urlTemplate,
    exampleEndpointUrl: endpoint.exampleUrl,
    plainPermalinkUrlTemplate: plainPermalinks,
    endpointPath: endpoint.urlPath,
    siteVariable: site.name,
    siteExample: site.defaultValue,
    versionSegment: endpoint.versionSegment,
    versionNamespace: endpoint.versionNamespace,
    documentVersion: model.documentVersion,
    credentialField: envelope.credential,
    actionField: envelope.selector,
    subscriptionField: envelope.subject,
    actions,
    actionCount: actions.length,
    states: lifecycle.states,
    stateCount: lifecycle.states.length,
    finalStates: lifecycle.finalStates,
    successStatus: success.status,
    errorStatuses: responses.filter((response) => response.isError).map((response) => response.status),
    errorCodes: responses.flatMap((response) => response.errorCodes.map((error) => error.code)),
    errorEnvelopeFields: errorEnvelope(responses),
    errorCodeField,
    credentialErrorCode: rejectedKey.code,
    credentialErrorStatus: rejectedKey.status,
    credentialErrorWhen: rejectedKey.when,
    transitionRefusedStatus: responseWithStatus(responses, conflictStatus, 'to an action the current status refuses').status,
    refusalCurrentStatusField: `${refusal.detailsMember}.${refusal.currentStatus}`,
    refusalAllowedActionsField: `${refusal.detailsMember}.${refusal.allowedActions}`,
    serviceFailureStatus: serviceFailureResponse(responses).status,
    unknownFieldErrorStatus: unknownField.status,
    unknownFieldErrorCode: unknownField.code,
    unknownFieldNamedIn: `${unknownField.detailsMember}.${unknownField.fieldsMember}`,
    noRouteErrorCode: noRoute.code,
    noRouteErrorStatus: noRoute.status,
    changedField: changed.name,
    rateLimitStatus: throttled.status,
    retryAfterHeader,
    retryAfterSecondsExample: exampleOf('number', 'in seconds'),
    retryAfterDateExample: exampleOf('string', 'as an HTTP date'),
    quickstartAction: quickstart.identifier,
    quickstartFromStates: acceptedStates(quickstart.transition),
  };
}

/** Reads every fact the guides use from a bundled document. */
export function readFacts(document: OpenApiDocument): Facts {
  return factsOf(readReferenceModel(document));
}

const factsOfModel = new WeakMap<ReferenceModel, Facts>();

/** The facts of the bundled document the build produced (see `bundleContract`). */
export function siteFacts(): Facts {
  const model = loadReferenceModel();
  let facts = factsOfModel.get(model);
  if (facts === undefined) {
    facts = factsOf(model);
    factsOfModel.set(model, facts);
  }
  return facts;
}
