/** RFC 9110, section 15.5.10: 409 Conflict is the answer to a request the resource's current state refuses. */
export const conflictStatus = '409';

/** RFC 9110, section 15.5.1: 400 Bad Request is the answer to a request the server cannot use as sent. */
export const badRequestStatus = '400';

/** RFC 9110, section 15.5.5: 404 Not Found is the answer when nothing matches the request. */
export const notFoundStatus = '404';

/** RFC 9110, section 15.6.1: 500 Internal Server Error is the answer when the server itself failed. */
export const internalErrorStatus = '500';

/** RFC 9110, section 15.5.2: 401 Unauthorized is the answer to a request without valid credentials. */
export const unauthorizedStatus = '401';

/** The property of every error body that holds the machine-readable code clients branch on. */
export const errorCodeField = 'code';

/** The property of every error body that explains the error to people (WordPress REST's envelope). */
export const errorMessageField = 'message';

/** WordPress's error envelope: the member that carries the details, and the status repeated in it. */
export const errorDataField = 'data';
export const errorStatusMember = 'status';

/** RFC 9110, section 10.2.3: the header that says how long to wait before trying again. */
export const retryAfterHeader = 'Retry-After';

/** WordPress REST's own code for a request it has no route for: another method, or another path. */
export const noRouteErrorCode = 'rest_no_route';

/** The error example that shows a request with a field the shop's release does not know. */
export const unknownFieldExampleName = 'unknown_field';
