/**
 * What the generated part of the package hands the runtime: every fact of the contract the client
 * acts on, written by the generator from the model. The runtime itself names no field, status or
 * code, so a new action or a renamed member reaches it through this description alone.
 */

export type LiteralValue = string | number | boolean | null;

/** One restriction on a field's value, as the contract states it. */
export interface FieldBound {
  /** The JSON Schema keyword: `minimum`, `maxLength`, `enum`, ... A keyword the runtime does not know is not checked. */
  readonly keyword: string;
  /** The restriction as a phrase: `at least 1`, `at most 500 characters`. */
  readonly label: string;
  readonly limit?: number;
  readonly values?: readonly LiteralValue[];
}

/** One field of a request, as the runtime checks it before anything is sent. */
export interface FieldRule {
  readonly name: string;
  /** The JSON types the field takes: `string`, `integer`, `number`, `boolean`, `null`, `array`, `object`. */
  readonly types: readonly string[];
  readonly required: boolean;
  readonly bounds: readonly FieldBound[];
  /** The bounds of an array's items. */
  readonly items?: { readonly types: readonly string[]; readonly bounds: readonly FieldBound[] };
}

/** The error body every service error shares: the members that carry the code, the message and the details. */
export interface ErrorBodyMembers {
  readonly code: string;
  readonly message: string;
  readonly data: string;
}

/** The retry policy's numbers, in milliseconds, from the errors guide. */
export interface PolicyDefaults {
  readonly attemptTimeoutMs: number;
  readonly maxAttempts: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly backoffFixedShare: number;
  readonly retryAfterCapMs: number;
  readonly paceMs: number;
}

export interface ClientDescription {
  readonly packageName: string;
  readonly version: string;
  /** The HTTP method of the endpoint. */
  readonly method: string;
  /** The endpoint's path under a site's base URL, `/wp-json/service/v1/action`. */
  readonly endpointPath: string;
  /** WordPress's REST prefix (`/wp-json`); the route after it is what `?rest_route=` carries. */
  readonly restPrefix: string;
  /** The request member that selects the action, the one that carries the key, and the one naming the subscription. */
  readonly selector: string;
  readonly credential: string;
  readonly subject: string;
  readonly successStatus: number;
  readonly throttledStatus: number;
  readonly retryAfterHeader: string;
  /** The service's own failure (5xx), sent again after a backoff. */
  readonly serviceFailureStatus: number;
  /** A host's answers worth another attempt after a backoff: a bad gateway, unavailable, a gateway timeout. */
  readonly transientHostStatuses: readonly number[];
  readonly errorBody: ErrorBodyMembers;
  readonly policy: PolicyDefaults;
  /** Each action's fields, the selector and the key left out: the client sets them. */
  readonly actions: Readonly<Record<string, readonly FieldRule[]>>;
  /** The fields every action takes, checked for an action a later release adds. */
  readonly sharedFields: readonly FieldRule[];
}
