/**
 * The model's vocabulary: what the one reading of the contract (readReferenceModel and the readers
 * beside it) hands every consumer. Readers and consumers import these types from here, so the words
 * of the model live in one file apart from the code that reads them.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ResolvedSchema } from './schemas.ts';

export interface RequestExample extends NamedExample {
  value: Record<string, unknown>;
}

/** An error that applies to an action; a refused transition also lists the statuses behind it. */
export interface ActionError extends ErrorTableRow {
  /** For the conflict response: the statuses this action does not accept. */
  refusedStates?: string[];
}

export interface Action {
  /** The value of the selector field, e.g. `pause_subscription`. */
  identifier: string;
  /** The schema's `title`: what the action does, in a few words. */
  title: string;
  /** Markdown from the schema. */
  description: string;
  deprecated: boolean;
  fields: Field[];
  requestExample: RequestExample;
  successExample: NamedExample;
  /** Other success examples of this action, such as a repeated request that changed nothing. */
  moreSuccessExamples: NamedExample[];
  transition: ActionTransition;
  /** The statuses from which the action is refused. */
  refusedStates: string[];
  errors: ActionError[];
  pointer: string;
}

/** What every request carries, whichever action it selects. */
export interface BodyEnvelope {
  /** Markdown from the request body object. */
  description: string;
  /** The field whose value selects the action. */
  selector: string;
  /** The field that carries the API key: the one string besides the selector that every action requires. */
  credential: string;
  /** The field that names the subscription: the one other field every action requires. */
  subject: string;
  /** The fields every action has, with the selector listing every identifier. */
  sharedFields: Field[];
  /**
   * The optional text every action takes for the subscription's history: the one optional
   * string field all actions share. Undefined when the document has none, or several.
   */
  note?: string;
}

/** The whole reference, read once from the bundled document. */
export interface ReferenceModel {
  /** `info.version`: the version of the document, which changes with every release of it. */
  documentVersion: string;
  endpoint: Endpoint;
  envelope: BodyEnvelope;
  actions: Action[];
  lifecycle: Lifecycle;
  responses: ResponseRow[];
  /** The fields of the success response's body. */
  resultFields: Field[];
}

export interface ServerVariable {
  name: string;
  defaultValue: string;
  /** Markdown from the contract. */
  description: string;
}

/** The one endpoint of the service: where it answers and which operation it runs. */
export interface Endpoint {
  /** Upper case, as written in HTTP (`POST`). */
  method: string;
  /** The path as the contract writes it, relative to the server URL (`/action`). */
  path: string;
  /** The full URL with its server variables left in braces (`https://{site}/…/action`). */
  urlTemplate: string;
  /** The full URL with every server variable replaced by its default. */
  exampleUrl: string;
  /** The path part of the full URL (`/wp-json/service/v1/action`). */
  urlPath: string;
  /** The segment of the server URL's path that names the major version (`v1`). */
  versionSegment: string;
  /** The server URL's path up to and including the version segment (`/wp-json/service/v1/`). */
  versionNamespace: string;
  variables: ServerVariable[];
  /** Markdown: what the server is, from `servers[0].description`. */
  serverDescription: string;
  summary: string;
  /** Markdown from the operation. */
  description: string;
  operation: OpenAPIV3_1.OperationObject;
  /** JSON pointer of the operation in the bundled document. */
  pointer: string;
}

/** An action that always leads to the same status. */
export interface FixedTransition {
  kind: 'fixed';
  action: string;
  from: string[];
  to: string;
}

/** An action whose target status is chosen by a request field, along a table of allowed moves. */
export interface ChosenTransition {
  kind: 'chosen';
  action: string;
  /** The request field that names the target status. */
  field: string;
  moves: Move[];
}

export interface Move {
  from: string;
  to: string[];
}

export type ActionTransition = FixedTransition | ChosenTransition;

export interface Lifecycle {
  /** Every status, in the order of the `SubscriptionStatus` enum. */
  states: string[];
  /** Statuses no action leads out of. */
  finalStates: string[];
  /** Markdown from `x-transitions.description`. */
  description: string;
  /** In the order of the request body's actions. */
  transitions: ActionTransition[];
}

export type LiteralValue = string | number | boolean | null;

/**
 * One restriction on a field's value. `label` reads as a phrase ("at most 500 characters");
 * `values`, when present, are literal values the page shows as code after the label.
 */
export interface Constraint {
  keyword: string;
  label: string;
  values?: LiteralValue[];
  /** The number a bound (`minimum`, `maxLength`, ...) sets. */
  limit?: number;
}

export interface Field {
  name: string;
  /** A short type label: `string`, `integer`, `array of string`, `string or null`. */
  type: string;
  required: boolean;
  constraints: Constraint[];
  /** Markdown from the contract; empty when the schema has no description. */
  description: string;
  deprecated: boolean;
  /** Where the field's schema was written, for error messages. */
  pointer: string;
  /**
   * The members of an object field (or of the objects an array field holds), in the order the
   * contract lists them; empty for a field without named members.
   */
  members: Field[];
}

/** A machine-readable error code and the situation it stands for. */
export interface ErrorCode {
  code: string;
  /** Markdown: the description of the code's `const` in the contract. */
  when: string;
}

export interface ResponseHeader {
  name: string;
  required: boolean;
  type: string;
  /** Markdown from the header object. */
  description: string;
  examples: NamedExample[];
}

export interface NamedExample {
  name: string;
  summary: string;
  value: unknown;
}

export interface ResponseRow {
  /** The status code as the contract writes it (`"409"`). */
  status: string;
  /** Markdown from the response object. */
  description: string;
  isError: boolean;
  /** The JSON body's schema; absent when the response has no body contract. */
  body?: ResolvedSchema;
  /** The members of the JSON body, nested objects included; empty without a body contract. */
  bodyFields: Field[];
  errorCodes: ErrorCode[];
  headers: ResponseHeader[];
  examples: NamedExample[];
  pointer: string;
  /** Where the operation lists it (`#/paths/~1action/post/responses/409`), which `pointer` may leave for a component. */
  listedAt?: string;
}

/** One row of the error table: status, code and when it happens. */
export interface ErrorTableRow {
  status: string;
  /** `null` for a response without a body contract, such as a throttled request. */
  code: string | null;
  /** Markdown. */
  when: string;
}
