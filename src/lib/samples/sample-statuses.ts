import type { ResponseRow } from '../contract/model.ts';
import { errorEnvelope } from '../contract/error-table.ts';
import { serviceFailureResponse, successResponse, throttledResponse } from '../contract/response-lookups.ts';
import { errorCodeField, errorMessageField, retryAfterHeader } from '../contract/response-names.ts';
import { contractError } from '../contract/schemas.ts';
import { retryPolicy } from './retry-policy.ts';

/** What a sample needs to know beyond the endpoint: how the service answers. */
export interface SampleStatuses {
  /** The status of a successful action (`"200"`). */
  success: string;
  /** The status a throttled request gets (`"429"`). */
  throttled: string;
  /** The header that says how long to wait after a throttled request. */
  retryAfter: string;
  /**
   * The statuses the retry policy sends again, in ascending order: the throttled one, the
   * service's own failure and the host's transient answers.
   */
  retried: number[];
  /** The members of the service's error body the samples read: the code, and the message for people. */
  codeField: string;
  messageField: string;
}

/** Reads the statuses the samples branch on from the documented responses, and the policy's retries. */
export function sampleStatuses(responses: ResponseRow[]): SampleStatuses {
  const throttled = throttledResponse(responses);
  const failure = serviceFailureResponse(responses);
  const envelope = errorEnvelope(responses);
  for (const member of [errorCodeField, errorMessageField]) {
    if (envelope.includes(member)) continue;
    // Named at the first error body that leaves it out, where the fix goes.
    const lacking = responses.find((response) => response.isError && response.body !== undefined && !(response.body.schema.required ?? []).includes(member));
    throw contractError(lacking?.body?.pointer ?? '#/paths', `the error bodies do not all require \`${member}\`, which the samples read`);
  }
  const retried = [...new Set([Number(throttled.status), Number(failure.status), ...retryPolicy.transientHostStatuses])].sort((a, b) => a - b);
  return {
    success: successResponse(responses).status,
    throttled: throttled.status,
    retryAfter: retryAfterHeader,
    retried,
    codeField: errorCodeField,
    messageField: errorMessageField,
  };
}
