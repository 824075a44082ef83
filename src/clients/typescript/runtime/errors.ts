/**
 * The errors every call can end with, named as src/clients/shared/error-kinds.ts names each kind
 * for every library (the generated index exports each by that name, so a class missing here fails
 * the build). The service's own errors (a JSON body with a code) are `ServiceError`s, and the
 * generated package adds one subclass per error the contract documents; what a host in front of
 * the site answers instead is a `HostError`. No message carries the key, and no message carries a
 * long text whole.
 */

/** The longest text, in characters, a message quotes from the caller or the site. */
const quotedTextLimit = 200;

/**
 * A text as a message quotes it: whole when short, otherwise its first characters and how many
 * there were. It is cut between characters (code points), never inside a surrogate pair, so the
 * message stays valid Unicode for a JSON logger.
 */
export function quotedText(text: string, limit = quotedTextLimit): string {
  const characters = Array.from(text);
  if (characters.length <= limit) return text;
  return `${characters.slice(0, limit).join('')}… (${characters.length} characters in all)`;
}

/** Every error this library throws, apart from the caller's own abort reason: catch it to catch them all. */
export class ClientError extends Error {
  override name = 'ClientError';
}

/**
 * The base error's name before release 1.1 of the package.
 *
 * @deprecated Catch {@link ClientError}: it is the same class.
 */
export const SubscriptionLifecycleError = ClientError;
/** @deprecated Use {@link ClientError}. */
export type SubscriptionLifecycleError = ClientError;

/** A field was refused before anything was sent: missing, of another type, or outside its bound. */
export class InvalidFieldError extends ClientError {
  override name = 'InvalidFieldError';
  /** The action the fields were meant for. */
  readonly action: string;
  /** The field that was refused. */
  readonly field: string;
  /** What the contract requires of it: `required`, `an integer`, `at least 1`, `at most 500 characters`. */
  readonly bound: string;

  constructor(action: string, field: string, bound: string, got: string) {
    super(`${action}: \`${field}\` must be ${bound}; ${got}. Nothing was sent.`);
    this.action = action;
    this.field = field;
    this.bound = bound;
  }
}

/** The body of a service error as it arrived, every member kept. */
export type ErrorBody = Readonly<Record<string, unknown>>;

/** The members of an error body, named once by the generated package (`code`, `message`, `data`). */
export interface ErrorMembers {
  readonly code: string;
  readonly message: string;
  readonly data: string;
}

function recordOf(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The service refused the request or failed: an answer with a JSON body carrying a code. Sending
 * the same request again unchanged would get the same answer. The generated package throws the
 * subclass of the status; an error status the contract does not document yet arrives as this class.
 */
export class ServiceError extends ClientError {
  override name = 'ServiceError';
  /** The HTTP status. */
  readonly status: number;
  /** The machine-readable code to branch on. */
  readonly code: string;
  /** The details the error body carries, every member kept, those the contract does not name yet too. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The whole error body, as it arrived. */
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, members: ErrorMembers) {
    const code = String(body[members.code]);
    const message = typeof body[members.message] === 'string' ? (body[members.message] as string) : '';
    super(`HTTP ${status} ${quotedText(code)}: ${quotedText(message)}`);
    this.status = status;
    this.code = code;
    this.data = recordOf(body[members.data]);
    this.body = body;
  }
}

/**
 * A host, firewall, CDN or proxy in front of the site answered, not the service: an HTML 403 or
 * 503, a redirect, a login page. The request may never have reached the service.
 */
export class HostError extends ClientError {
  override name = 'HostError';
  readonly status: number;
  /** The answer's `Content-Type`, empty when it had none. */
  readonly contentType: string;
  /** Where a redirect points, when the answer is one. */
  readonly location: string | undefined;

  constructor(status: number, contentType: string, location: string | undefined) {
    super(`HTTP ${status} from the host, not the service (${contentType === '' ? 'no body type' : quotedText(contentType)})${location === undefined ? '' : `; it points to ${quotedText(location)}`}`);
    this.status = status;
    this.contentType = contentType;
    this.location = location;
  }
}

/** The host kept answering 429, or asked to wait longer than the client's bound: try again later. */
export class ThrottledError extends ClientError {
  override name = 'ThrottledError';
  readonly status: number;
  /** The wait the host asked for, in milliseconds; undefined when its `Retry-After` was missing or unreadable. */
  readonly retryAfterMs: number | undefined;
  /** The attempts made, this one included. */
  readonly attempts: number;

  constructor(status: number, retryAfterMs: number | undefined, attempts: number, reason: string) {
    super(`HTTP ${status}: ${reason}`);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.attempts = attempts;
  }
}

/**
 * No answer came on the last attempt, after the retries the policy allows: the site did not answer
 * in time ({@link TimeoutError}) or the connection failed ({@link ConnectionError}). The action may
 * have gone through, and a repeat is safe.
 */
export class NoAnswerError extends ClientError {
  override name = 'NoAnswerError';
  /** The attempts made, this one included. */
  readonly attempts: number;

  constructor(message: string, attempts: number, options?: { cause?: unknown }) {
    super(message, options);
    this.attempts = attempts;
  }
}

/** No answer came within the timeout, on the last attempt. The action may have gone through: a repeat is safe. */
export class TimeoutError extends NoAnswerError {
  override name = 'TimeoutError';
  /** The timeout of one attempt, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number, attempts: number) {
    super(`no answer within ${timeoutMs} ms (attempt ${attempts}); the action may have gone through, and a repeat is safe`, attempts);
    this.timeoutMs = timeoutMs;
  }
}

/** The connection failed on the last attempt: a wrong address, a refused or dropped connection. */
export class ConnectionError extends NoAnswerError {
  override name = 'ConnectionError';

  constructor(attempts: number, cause: unknown) {
    const code = typeof cause === 'object' && cause !== null && 'cause' in cause ? (cause.cause as { code?: unknown } | undefined)?.code : undefined;
    super(`no answer from the site (${typeof code === 'string' ? code : cause instanceof Error ? quotedText(cause.message) : 'connection failed'}, attempt ${attempts}); the action may have gone through, and a repeat is safe`, attempts, { cause });
  }
}
