/**
 * The one table of what a call to a client library can end with, and the one name each kind has
 * in every language: PHP appends `Exception`, TypeScript `Error`, and the rest of the name is the
 * same (`Conflict` → `ConflictException`, `ConflictError`). Every generator reads these, so a kind
 * cannot be called one thing in one language and another in the next.
 */
import { reasonPhrase } from '../../lib/http/status-reasons.ts';
import { pascalCaseName } from '../../lib/samples/client-libraries.ts';

/** The languages a client library is generated in, and the word each ends an error class with. */
export const errorClassSuffixes = { php: 'Exception', typescript: 'Error', python: 'Error' } as const;

export type ClientLanguage = keyof typeof errorClassSuffixes;

/** The kinds every call can end with, whatever the contract documents. */
export interface FixedErrorKind {
  /** The name's stem, before the language's suffix. */
  readonly stem: string;
  /**
   * The id of the kind this one refines; undefined for the base every error shares. A plain string
   * here, as the ids are the table's own keys (typed from it, they would refer to themselves); the
   * unit test checks each names a kind.
   */
  readonly parent: string | undefined;
  /** What happened, in a sentence a page or a doc comment can show. */
  readonly meaning: string;
}

export const fixedErrorKinds = {
  base: {
    stem: 'Client',
    parent: undefined,
    meaning: 'Every error the library throws: catch it to catch them all.',
  },
  invalidField: {
    stem: 'InvalidField',
    parent: 'base',
    meaning: 'A field was refused before anything was sent: missing, of another type, or outside a bound the contract sets.',
  },
  service: {
    stem: 'Service',
    parent: 'base',
    meaning: 'The service answered with an error body carrying a code; the base of each documented status, and the class of a status a later release documents.',
  },
  host: {
    stem: 'Host',
    parent: 'base',
    meaning: 'A host, firewall, CDN or proxy in front of the site answered instead of the service: an HTML page, a redirect, a login page.',
  },
  throttled: {
    stem: 'Throttled',
    parent: 'base',
    meaning: 'The site kept asking to slow down, or asked to wait longer than the client waits: try again later.',
  },
  noAnswer: {
    stem: 'NoAnswer',
    parent: 'base',
    meaning: 'No answer came on the last attempt, after the retries the policy allows; the action may have gone through, and a repeat is safe.',
  },
  timeout: {
    stem: 'Timeout',
    parent: 'noAnswer',
    meaning: 'The site did not answer within the timeout.',
  },
  connection: {
    stem: 'Connection',
    parent: 'noAnswer',
    meaning: 'The connection failed: a wrong address, a refused or a dropped connection.',
  },
} as const satisfies Record<string, FixedErrorKind>;

export type FixedErrorKindId = keyof typeof fixedErrorKinds;

/**
 * Statuses whose reason phrase says nothing a caller can act on, named by what happened instead.
 * The throttled status is its own kind (it is retried, and its class says so); a documented error
 * body arriving with it is still a `Throttled` one.
 */
const namedByWhatHappened: Readonly<Record<number, string>> = {
  429: fixedErrorKinds.throttled.stem,
};

/** The stem of the class a service error of `status` is thrown as: `409` → `Conflict`, `429` → `Throttled`. */
export function statusErrorStem(status: number | string): string {
  const code = Number(status);
  const named = namedByWhatHappened[code];
  if (named !== undefined) return named;
  const phrase = reasonPhrase(code);
  if (phrase === undefined) throw new Error(`HTTP status ${code} has no reason phrase in src/lib/http/status-reasons.ts to name its error class after`);
  return pascalCaseName(phrase);
}

/**
 * A stem in a language's spelling: `errorClassName('Conflict', 'php')` → `ConflictException`. A
 * stem that already ends with the language's word keeps it once (`InternalServerError` stays
 * `InternalServerError` in TypeScript, and is `InternalServerErrorException` in PHP), so that no
 * class reads `…ErrorError`.
 */
export function errorClassName(stem: string, language: ClientLanguage): string {
  const suffix = errorClassSuffixes[language];
  return stem.endsWith(suffix) ? stem : `${stem}${suffix}`;
}

/** The class of a fixed kind in a language: `fixedErrorClassName('timeout', 'typescript')` → `TimeoutError`. */
export function fixedErrorClassName(kind: FixedErrorKindId, language: ClientLanguage): string {
  return errorClassName(fixedErrorKinds[kind].stem, language);
}

/** The class of a status in a language: `statusErrorClassName(409, 'php')` → `ConflictException`. */
export function statusErrorClassName(status: number | string, language: ClientLanguage): string {
  return errorClassName(statusErrorStem(status), language);
}
