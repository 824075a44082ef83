/**
 * The contract's facts every library's runtime acts on, read from the model once: the endpoint,
 * the envelope's members, the statuses the retry policy tells apart, the error body's members,
 * and each action's field rules. Each generator writes them into its runtime's description in its
 * own language's spelling and units; which facts there are, and where they come from, is decided here.
 */
import { wordpressRestPrefix } from '../../lib/contract/endpoint.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { errorCodeField, errorDataField, errorMessageField } from '../../lib/contract/response-names.ts';
import { serviceFailureResponse, successResponse } from '../../lib/contract/response-lookups.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { callerFields, fieldRule, type FieldRule } from './field-rules.ts';

export interface ContractFacts {
  readonly version: string;
  /** The HTTP method of the endpoint. */
  readonly method: string;
  /** The endpoint's path under a site's base URL. */
  readonly endpointPath: string;
  /** WordPress's REST prefix; the route after it is what `?rest_route=` carries. */
  readonly restPrefix: string;
  readonly selector: string;
  readonly credential: string;
  readonly subject: string;
  readonly successStatus: number;
  readonly throttledStatus: number;
  readonly retryAfterHeader: string;
  readonly serviceFailureStatus: number;
  /** A host's answers the retry policy sends again after a backoff. */
  readonly transientHostStatuses: readonly number[];
  readonly errorBody: { readonly code: string; readonly message: string; readonly data: string };
  /** Each action's fields, the selector and the key left out: the client sets them. */
  readonly actions: Readonly<Record<string, readonly FieldRule[]>>;
  /** The fields every action takes, checked for an action a later release adds. */
  readonly sharedFields: readonly FieldRule[];
}

/** The facts of a contract every runtime's description carries. */
export function contractFacts(contract: ExecutableContract): ContractFacts {
  const { model } = contract;
  return {
    version: model.documentVersion,
    method: model.endpoint.method,
    endpointPath: model.endpoint.urlPath,
    restPrefix: wordpressRestPrefix,
    selector: model.envelope.selector,
    credential: model.envelope.credential,
    subject: model.envelope.subject,
    successStatus: Number(successResponse(model.responses).status),
    throttledStatus: Number(contract.throttled.status),
    retryAfterHeader: contract.retryAfterHeader,
    serviceFailureStatus: Number(serviceFailureResponse(model.responses).status),
    transientHostStatuses: [...retryPolicy.transientHostStatuses],
    errorBody: { code: errorCodeField, message: errorMessageField, data: errorDataField },
    actions: Object.fromEntries(model.actions.map((action) => [action.identifier, callerFields(contract, action.fields).map((field) => fieldRule(contract, field))])),
    sharedFields: callerFields(contract, model.envelope.sharedFields).map((field) => fieldRule(contract, field)),
  };
}
