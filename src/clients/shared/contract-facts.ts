/**
 * The contract's facts every library's runtime acts on, read from the model once: the endpoint,
 * the envelope's members, the statuses the retry policy tells apart, the error body's members,
 * and each action's field rules. Each generator writes them into its runtime's description in its
 * own language's spelling and units; which facts there are, and where they come from, is decided here.
 */
import { wordpressRestPrefix } from '../../lib/contract/endpoint.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import type { Field, ResponseRow } from '../../lib/contract/model.ts';
import { errorCodeField, errorDataField, errorMessageField, errorStatusMember } from '../../lib/contract/response-names.ts';
import { serviceFailureResponse, successResponse } from '../../lib/contract/response-lookups.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { callerFields, fieldRule } from './field-rules.ts';

/** The facts of a contract every runtime's description carries. */
export function contractFacts(contract: ExecutableContract) {
  const { model } = contract;
  return {
    version: model.documentVersion,
    method: model.endpoint.method,
    endpointPath: model.endpoint.urlPath,
    // The route after WordPress's REST prefix is what `?rest_route=` carries.
    restPrefix: wordpressRestPrefix,
    selector: model.envelope.selector,
    credential: model.envelope.credential,
    subject: model.envelope.subject,
    successStatus: Number(successResponse(model.responses).status),
    throttledStatus: Number(contract.throttled.status),
    retryAfterHeader: contract.retryAfterHeader,
    serviceFailureStatus: Number(serviceFailureResponse(model.responses).status),
    // A host's answers the retry policy sends again after a backoff.
    transientHostStatuses: [...retryPolicy.transientHostStatuses],
    errorBody: { code: errorCodeField, message: errorMessageField, data: errorDataField },
    // Each action's fields and those every action takes, the selector and the key left out: the client sets them.
    actions: Object.fromEntries(model.actions.map((action) => [action.identifier, callerFields(contract, action.fields).map((field) => fieldRule(contract, field))])),
    sharedFields: callerFields(contract, model.envelope.sharedFields).map((field) => fieldRule(contract, field)),
  };
}

/**
 * The details an error's class gives a property (or getter) each: the members of the error body's
 * data, its status left out, which the class already has.
 */
export function errorDetailMembers(response: Pick<ResponseRow, 'bodyFields'>): Field[] {
  const data = response.bodyFields.find((field) => field.name === errorDataField);
  return (data?.members ?? []).filter((member) => member.name !== errorStatusMember);
}
