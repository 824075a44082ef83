import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument, SchemaObject } from './document.ts';
import { ContractError, dereference, isRecord, isReference, loadBundledDocument } from './document.ts';

/**
 * The facts the hand-written guides mention, each read from the bundled OpenAPI document.
 * A guide names a fact (`<Fact name="credentialField" />`) instead of typing its value, so a
 * change in `openapi/` reaches every guide with the next build. Every fact is found by what it
 * means in the document (the required write-only string of every action, the response that
 * declares `Retry-After`), never by a hard-coded value, and a document that no longer says it
 * makes the build fail with a `ContractError` naming the place.
 */
export interface Facts {
  /** HTTP method of the one operation, e.g. `POST`. */
  method: string;
  /** Server URL plus path, with the site variable left in, e.g. `https://{site}/…/action`. */
  endpointUrlTemplate: string;
  /** The endpoint URL with the site variable replaced by its (reserved example) default. */
  exampleEndpointUrl: string;
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
  /** The required `writeOnly` string every action's request schema has: the API key. */
  credentialField: string;
  /** The discriminator property that selects the action. */
  actionField: string;
  /** The other field every action requires: the subscription it acts on. */
  subscriptionField: string;
  /** Action identifiers, in the order of the discriminator mapping. */
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
  /** The error code (and its status) for a missing or wrong API key. */
  credentialErrorCode: string;
  credentialErrorStatus: string;
  /** Status of the refusal sent when the current state does not accept the action. */
  transitionRefusedStatus: string;
  /** The success-body boolean that tells whether anything changed. */
  changedField: string;
  /** Status of the response that declares `Retry-After`: the rate limit. */
  rateLimitStatus: string;
  /** The header that tells how long to wait, as spelled in the document. */
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
  request: unknown;
  response: unknown;
  repeatedResponse: unknown;
}

type ResponseObject = OpenAPIV3_1.ResponseObject;
type HeaderObject = OpenAPIV3_1.HeaderObject;
type OperationObject = OpenAPIV3_1.OperationObject;

function fail(location: string, problem: string): never {
  throw new ContractError(location, problem);
}

/** The one operation of the document, with its path; the service has exactly one endpoint. */
function theOperation(document: OpenApiDocument): { path: string; method: string; operation: OperationObject } {
  const found: { path: string; method: string; operation: OperationObject }[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isRecord(item)) continue;
    for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const) {
      const operation = item[method];
      if (isRecord(operation)) found.push({ path, method, operation: operation as OperationObject });
    }
  }
  if (found.length !== 1 || !found[0]) fail('#/paths', `expected exactly one operation, found ${found.length}`);
  return found[0];
}

function schemaAt(document: OpenApiDocument, value: unknown, location: string): SchemaObject {
  const schema = dereference<SchemaObject>(document, value as SchemaObject);
  if (!isRecord(schema)) fail(location, 'is not a schema object');
  return schema;
}

function requestBranches(document: OpenApiDocument, operation: OperationObject): SchemaObject[] {
  const body = dereference<OpenAPIV3_1.RequestBodyObject>(document, operation.requestBody ?? fail('requestBody', 'is missing'));
  const schema = schemaAt(document, body.content?.['application/json']?.schema, 'requestBody application/json schema');
  if (!Array.isArray(schema.oneOf)) fail('requestBody schema', 'has no `oneOf` of action schemas');
  return schema.oneOf.map((branch, index) => schemaAt(document, branch, `requestBody oneOf[${index}]`));
}

function requestSchema(document: OpenApiDocument, operation: OperationObject): SchemaObject {
  const body = dereference<OpenAPIV3_1.RequestBodyObject>(document, operation.requestBody ?? fail('requestBody', 'is missing'));
  return schemaAt(document, body.content?.['application/json']?.schema, 'requestBody application/json schema');
}

/** Names that every branch lists as required and whose schema passes `test`. */
function requiredInEveryBranch(
  document: OpenApiDocument,
  branches: SchemaObject[],
  test: (schema: SchemaObject) => boolean,
): string[] {
  const [first, ...rest] = branches;
  if (!first) return [];
  return (first.required ?? []).filter((name) =>
    [first, ...rest].every(
      (branch) =>
        (branch.required ?? []).includes(name) &&
        branch.properties?.[name] !== undefined &&
        test(schemaAt(document, branch.properties[name], `property ${name}`)),
    ),
  );
}

function exactlyOne<T>(values: T[], location: string, what: string): T {
  if (values.length !== 1 || values[0] === undefined) {
    fail(location, `expected exactly one ${what}, found ${values.length} (${values.join(', ')})`);
  }
  return values[0];
}

function responses(document: OpenApiDocument, operation: OperationObject): [string, ResponseObject][] {
  return Object.entries(operation.responses ?? {}).map(([status, response]) => [
    status,
    dereference<ResponseObject>(document, response as ResponseObject),
  ]);
}

/** The values a `code` property allows: its `const`, or the `const` of each `oneOf` branch. */
function constValues(schema: SchemaObject): string[] {
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.oneOf)) {
    return schema.oneOf.flatMap((branch: unknown) =>
      isRecord(branch) && typeof branch.const === 'string' ? [branch.const] : [],
    );
  }
  return [];
}

function jsonSchemaOf(document: OpenApiDocument, response: ResponseObject, status: string): SchemaObject {
  return schemaAt(document, response.content?.['application/json']?.schema, `response ${status} application/json schema`);
}

function transitionsOf(document: OpenApiDocument): Record<string, unknown> {
  const transitions = (document as unknown as Record<string, unknown>)['x-transitions'];
  if (!isRecord(transitions) || !isRecord(transitions.actions)) fail('#/x-transitions', 'has no `actions` table');
  return transitions;
}

function statesNamedIn(transitions: Record<string, unknown>): Set<string> {
  const named = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') named.add(value);
    if (Array.isArray(value)) value.forEach(add);
  };
  for (const entry of Object.values(transitions.actions as Record<string, unknown>)) {
    if (!isRecord(entry)) continue;
    add(entry.from);
    add(entry.to);
    if (isRecord(entry.moves)) {
      Object.keys(entry.moves).forEach(add);
      Object.values(entry.moves).forEach(add);
    }
  }
  add(transitions.final);
  return named;
}

/** Reads every fact the guides use from the bundled document. */
export function readFacts(document: OpenApiDocument): Facts {
  const { path, method, operation } = theOperation(document);
  const server = document.servers?.[0] ?? fail('#/servers', 'lists no server');
  const endpointUrlTemplate = `${server.url.replace(/\/$/, '')}${path}`;
  const siteVariable = exactlyOne(Object.keys(server.variables ?? {}), '#/servers/0/variables', 'server variable');
  const siteExample = server.variables?.[siteVariable]?.default ?? fail('#/servers/0/variables', 'has no default');
  const exampleEndpointUrl = endpointUrlTemplate.replace(`{${siteVariable}}`, siteExample);
  const endpointPath = new URL(exampleEndpointUrl).pathname;
  const segments = endpointPath.split('/').filter(Boolean);
  const versionIndex = segments.findIndex((segment) => /^v\d+$/.test(segment));
  if (versionIndex < 0) fail('#/servers/0/url', 'has no version segment such as `v1` in its path');
  const versionSegment = segments[versionIndex] as string;
  const versionNamespace = `/${segments.slice(0, versionIndex + 1).join('/')}/`;

  const body = requestSchema(document, operation);
  const branches = requestBranches(document, operation);
  const actionField = body.discriminator?.propertyName ?? fail('requestBody schema', 'has no discriminator');
  const actions = Object.keys(body.discriminator?.mapping ?? {});
  if (actions.length === 0) fail('requestBody discriminator', 'has no mapping of action identifiers');
  const credentialField = exactlyOne(
    requiredInEveryBranch(document, branches, (schema) => schema.type === 'string' && schema.writeOnly === true),
    'requestBody oneOf',
    'required write-only string field shared by every action',
  );
  const subscriptionField = exactlyOne(
    requiredInEveryBranch(document, branches, () => true).filter(
      (name) => name !== credentialField && name !== actionField,
    ),
    'requestBody oneOf',
    'required field besides the key and the action shared by every action',
  );

  const all = responses(document, operation);
  const success = all.filter(([status]) => status.startsWith('2'));
  const [successStatus, successResponse] = exactlyOne(success, 'responses', 'success response');
  const successSchema = jsonSchemaOf(document, successResponse, successStatus);
  const changedField = exactlyOne(
    Object.entries(successSchema.properties ?? {})
      .filter(([, property]) => {
        const schema = schemaAt(document, property, 'success property');
        return schema.type === 'boolean' && schema.const === undefined;
      })
      .map(([name]) => name),
    `response ${successStatus}`,
    'boolean field that is not a constant',
  );

  const transitions = transitionsOf(document);
  const named = statesNamedIn(transitions);
  const stateEnum = Object.values(successSchema.properties ?? {})
    .map((property) => schemaAt(document, property, 'success property').enum)
    .find((values): values is string[] => Array.isArray(values) && [...named].every((state) => values.includes(state)));
  if (!stateEnum) fail(`response ${successStatus}`, 'has no status enumeration covering the states of x-transitions');
  const finalStates = Array.isArray(transitions.final) ? transitions.final.map(String) : [];

  const errors = all.filter(([status]) => /^[45]/.test(status));
  const withBody = errors.filter(([, response]) => response.content?.['application/json'] !== undefined);
  const errorSchemas = withBody.map(([status, response]) => ({ status, schema: jsonSchemaOf(document, response, status) }));
  const errorEnvelopeFields = (errorSchemas[0]?.schema.required ?? []).filter((name) =>
    errorSchemas.every(({ schema }) => (schema.required ?? []).includes(name)),
  );
  const errorCodeField = exactlyOne(
    errorEnvelopeFields.filter((name) =>
      errorSchemas.every(({ schema }) => constValues(schemaAt(document, schema.properties?.[name], name)).length > 0),
    ),
    'error responses',
    'field holding constant error codes',
  );
  const codesByStatus = errorSchemas.map(({ status, schema }) => ({
    status,
    codes: constValues(schemaAt(document, schema.properties?.[errorCodeField], errorCodeField)),
  }));
  // HTTP itself says what 401 means: the request lacks valid authentication (RFC 9110, 15.5.2).
  const credentialErrorStatus = '401';
  const credentialErrorCode = exactlyOne(
    codesByStatus.filter(({ status }) => status === credentialErrorStatus).flatMap(({ codes }) => codes),
    `response ${credentialErrorStatus}`,
    'error code for a missing or wrong key',
  );

  // The refusal of a transition is the error whose details list the actions the state accepts.
  const listsActions = (value: unknown): boolean => {
    const schema = schemaAt(document, value, 'error detail');
    const items: unknown = 'items' in schema ? schema.items : undefined;
    const itemEnum = items === undefined ? undefined : schemaAt(document, items, 'items').enum;
    return Array.isArray(itemEnum) && itemEnum.some((entry) => actions.includes(String(entry)));
  };
  const transitionRefusedStatus = exactlyOne(
    errorSchemas
      .filter(({ schema }) =>
        Object.values(schema.properties ?? {}).some((member) =>
          Object.values(schemaAt(document, member, 'error member').properties ?? {}).some(listsActions),
        ),
      )
      .map(({ status }) => status),
    'error responses',
    'error whose details list allowed actions',
  );

  const rateLimited = all.flatMap(([status, response]) =>
    Object.entries(response.headers ?? {})
      .filter(([name]) => name.toLowerCase() === 'retry-after')
      .map(([name, header]) => ({ status, name, header: dereference<HeaderObject>(document, header as HeaderObject) })),
  );
  const rateLimit = exactlyOne(
    rateLimited.map((entry) => entry.status),
    'responses',
    'response declaring Retry-After',
  );
  const retryAfter = rateLimited[0] as (typeof rateLimited)[number];
  const retryExamples = Object.values(retryAfter.header.examples ?? {}).map(
    (example) => dereference<OpenAPIV3_1.ExampleObject>(document, example).value as unknown,
  );
  const retryAfterSecondsExample = String(
    retryExamples.find((value) => typeof value === 'number') ?? fail('Retry-After', 'has no example in seconds'),
  );
  const retryAfterDateExample = String(
    retryExamples.find((value) => typeof value === 'string') ?? fail('Retry-After', 'has no HTTP-date example'),
  );

  const examples = readQuickstartExamples(document);
  const quickstartAction = actionOf(examples.repeatedResponse, actionField);
  if (!actions.includes(quickstartAction)) fail('repeated_action example', `names unknown action ${quickstartAction}`);
  const quickstartEntry = (transitions.actions as Record<string, unknown>)[quickstartAction];
  const quickstartFromStates = isRecord(quickstartEntry) && Array.isArray(quickstartEntry.from) ? quickstartEntry.from.map(String) : [];

  return {
    method: method.toUpperCase(),
    endpointUrlTemplate,
    exampleEndpointUrl,
    endpointPath,
    siteVariable,
    siteExample,
    versionSegment,
    versionNamespace,
    documentVersion: document.info.version,
    credentialField,
    actionField,
    subscriptionField,
    actions,
    actionCount: actions.length,
    states: stateEnum,
    stateCount: stateEnum.length,
    finalStates,
    successStatus,
    errorStatuses: errors.map(([status]) => status),
    errorCodes: codesByStatus.flatMap(({ codes }) => codes),
    errorEnvelopeFields,
    errorCodeField,
    credentialErrorCode,
    credentialErrorStatus,
    transitionRefusedStatus,
    changedField,
    rateLimitStatus: rateLimit,
    retryAfterHeader: retryAfter.name,
    retryAfterSecondsExample,
    retryAfterDateExample,
    quickstartAction,
    quickstartFromStates,
  };
}

function actionOf(example: unknown, actionField: string): string {
  if (!isRecord(example) || typeof example[actionField] !== 'string') {
    fail('repeated_action example', `has no \`${actionField}\``);
  }
  return example[actionField] as string;
}

/**
 * The request and response the quickstart shows. The document marks one success example as
 * `repeated_action` (an action sent twice); the quickstart uses that action, so it can show both
 * the first answer and the answer to a retry.
 */
export function readQuickstartExamples(document: OpenApiDocument): QuickstartExamples {
  const { operation } = theOperation(document);
  const [, success] =
    responses(document, operation).find(([status]) => status.startsWith('2')) ?? fail('responses', 'no success response');
  const successExamples = success.content?.['application/json']?.examples ?? {};
  const valueOf = (example: unknown) =>
    isReference(example) || isRecord(example)
      ? dereference<OpenAPIV3_1.ExampleObject>(document, example as OpenAPIV3_1.ExampleObject).value
      : undefined;
  const repeatedResponse = valueOf(successExamples.repeated_action) ?? fail('success examples', 'no `repeated_action`');
  const requestBody = dereference<OpenAPIV3_1.RequestBodyObject>(document, operation.requestBody ?? fail('requestBody', 'is missing'));
  const actionField = requestSchema(document, operation).discriminator?.propertyName ?? 'action';
  const action = actionOf(repeatedResponse, actionField);
  const request = valueOf(requestBody.content?.['application/json']?.examples?.[action]);
  const response = valueOf(successExamples[action]);
  if (request === undefined) fail('request examples', `no example for ${action}`);
  if (response === undefined) fail('success examples', `no example for ${action}`);
  return { request, response, repeatedResponse };
}

/** A success-body property with the description the document gives it. */
export interface DescribedField {
  name: string;
  description: string;
}

/** The properties of the success body, in order, each with its description. */
export function successFields(document: OpenApiDocument): DescribedField[] {
  const { operation } = theOperation(document);
  const [status, success] =
    responses(document, operation).find(([code]) => code.startsWith('2')) ?? fail('responses', 'no success response');
  const schema = jsonSchemaOf(document, success, status);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    // A `$ref` with a sibling `description` (OpenAPI 3.1) says what the field means here.
    const own = isRecord(property) && typeof property.description === 'string' ? property.description : undefined;
    return { name, description: (own ?? schemaAt(document, property, name).description ?? '').trim() };
  });
}

let cachedDocument: OpenApiDocument | undefined;

/** The bundled document the build produced; read once per build. */
export function bundledDocument(): OpenApiDocument {
  cachedDocument ??= loadBundledDocument();
  return cachedDocument;
}

let cachedFacts: Facts | undefined;

/** The facts of the bundled document the build produced (see `bundleContract`). */
export function siteFacts(): Facts {
  cachedFacts ??= readFacts(bundledDocument());
  return cachedFacts;
}

const smallNumbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A count as prose reads it: words up to twelve, digits beyond. */
export function countInWords(count: number): string {
  return smallNumbers[count] ?? String(count);
}
