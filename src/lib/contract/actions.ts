import type { OpenApiDocument } from './document.ts';
import { isRecord, oncePerBundle } from './document.ts';
import type { Action, ActionError, BodyEnvelope, Field, NamedExample, ReferenceModel, RequestExample, ResponseRow } from './model.ts';
import { readEndpoint } from './endpoint.ts';
import { fieldsOf } from './fields.ts';
import { readLifecycle, refusedStates } from './lifecycle.ts';
import type { RequestBody } from './request-body.ts';
import { readRequestBody } from './request-body.ts';
import { errorTable } from './error-table.ts';
import { successResponse } from './response-lookups.ts';
import { conflictStatus } from './response-names.ts';
import { listResponses } from './responses.ts';
import { attempt, readOrThrow, type ContractProblem, type ReportProblem } from './problems.ts';
import { childPointer, contractError, exactlyOne, requiredString, resolveObject } from './schemas.ts';

function requestExampleOf(
  document: OpenApiDocument,
  requestBody: RequestBody,
  identifier: string,
  fields: Field[],
  report: ReportProblem,
): RequestExample | undefined {
  const pointer = childPointer(requestBody.pointer, 'examples', identifier);
  const raw = requestBody.examples[identifier];
  if (raw === undefined) throw contractError(pointer, `is missing: every action needs a request example named after it`);
  const example = resolveObject(document, raw, pointer);
  const value = example.value.value;
  if (!isRecord(value)) throw contractError(example.pointer, 'the request example is expected to be a JSON object');
  const reported: ContractProblem[] = [];
  const tell: ReportProblem = (problem) => {
    reported.push(problem);
    report(problem);
  };
  const location = example.pointer;
  if (value[requestBody.selector] !== identifier) tell({ location, message: `the example's \`${requestBody.selector}\` is expected to be \`${identifier}\`` });
  const names = new Set(fields.map((field) => field.name));
  for (const unknown of Object.keys(value).filter((name) => !names.has(name))) tell({ location, message: `sends \`${unknown}\`, which ${identifier} does not accept` });
  for (const missing of fields.filter((field) => field.required && !(field.name in value))) tell({ location, message: `lacks the required field \`${missing.name}\`` });
  if (reported.length > 0) return undefined;
  const summary = example.value.summary;
  return { name: identifier, summary: typeof summary === 'string' ? summary : '', value };
}

function successExampleOf(success: ResponseRow, identifier: string): NamedExample {
  const example = success.examples.find((candidate) => candidate.name === identifier);
  if (example === undefined) {
    throw contractError(
      childPointer(success.pointer, 'content', 'application/json', 'examples', identifier),
      `is missing: the ${success.status} response needs an example named after every action`,
    );
  }
  return example;
}

/**
 * Every error response applies to every action, except the conflict: an action that accepts
 * every status can never be refused for the status the subscription is in.
 */
function errorsOf(responses: ResponseRow[], refused: string[]): ActionError[] {
  return errorTable(responses).flatMap((row): ActionError[] => {
    if (row.status !== conflictStatus) return [row];
    return refused.length === 0 ? [] : [{ ...row, refusedStates: refused }];
  });
}

/** The fields every action has. The selector's own row lists all identifiers instead of one. */
function envelopeOf(requestBody: RequestBody, actions: Action[]): BodyEnvelope {
  const [first, ...others] = actions;
  if (first === undefined) throw contractError(requestBody.pointer, 'the request body offers no action');
  const sharedFields = first.fields
    .filter((field) => others.every((action) => action.fields.some((other) => other.name === field.name)))
    .map((field): Field => {
      const requiredEverywhere = others.every(
        (action) => action.fields.find((other) => other.name === field.name)?.required === true,
      );
      const shared = { ...field, required: field.required && requiredEverywhere };
      if (field.name !== requestBody.selector) return shared;
      return {
        ...shared,
        constraints: [{ keyword: 'enum', label: 'one of', values: actions.map((action) => action.identifier) }],
      };
    });

  const required = sharedFields.filter((field) => field.required);
  // A format such as `string (password)` still makes the key a string; `string or null` does not.
  const isString = (field: Field): boolean => field.type.replace(/ \(.*\)$/, '') === 'string';
  // The key is known by its place, not by a keyword: `writeOnly` (release 1.0.0) made generators
  // leave it out of the request types they name, and a strict validator refuses an `x-` keyword.
  const credential = exactlyOne(
    required.filter((field) => isString(field) && field.name !== requestBody.selector),
    requestBody.pointer,
    `string besides \`${requestBody.selector}\` that every action requires (the API key)`,
    (field) => field.name,
  );
  const subject = exactlyOne(
    required.filter((field) => field.name !== credential.name && field.name !== requestBody.selector),
    requestBody.pointer,
    `field besides the key and \`${requestBody.selector}\` that every action requires (the subscription it acts on)`,
    (field) => field.name,
  );
  const notes = sharedFields.filter((field) => !field.required && isString(field));
  const [note] = notes;
  return {
    description: requestBody.description,
    selector: requestBody.selector,
    credential: credential.name,
    subject: subject.name,
    sharedFields,
    ...(note !== undefined && notes.length === 1 ? { note: note.name } : {}),
  };
}

/**
 * Reads the endpoint, its actions, their lifecycle and the responses from the bundled document,
 * reporting every problem and reading on: each part that does not depend on a broken one is
 * still read and checked (every action, every response, the lifecycle table). Undefined when a
 * part could not be read; the model is whole only when nothing was reported. `npm run lint` runs
 * this as a step of the gate, so it refuses whatever the build would.
 */
export function checkReferenceModel(document: OpenApiDocument, report: ReportProblem): ReferenceModel | undefined {
  const documentVersion = attempt(report, () => requiredString(document.info.version, '#/info', '`version`'));
  const endpoint = attempt(report, () => readEndpoint(document));
  if (endpoint === undefined) return undefined;
  const requestBody = attempt(report, () => readRequestBody(document, endpoint, report));
  const responses = attempt(report, () => listResponses(document, endpoint, report)) ?? [];
  const success = attempt(report, () => successResponse(responses));
  if (success !== undefined && success.body === undefined) report({ location: success.pointer, message: 'the success response has no JSON body' });
  if (requestBody === undefined) return undefined;
  const lifecycleActions = requestBody.variants.map(({ identifier, schema }) => ({ identifier, requiredFields: schema.schema.required ?? [] }));
  const lifecycle = readLifecycle(document, lifecycleActions, report);

  const actions = requestBody.variants.map(({ identifier, schema }): Action | undefined => {
    const title = attempt(report, () => requiredString(schema.schema.title, schema.pointer, '`title` (what the action does, in a few words)'));
    const description = attempt(report, () => requiredString(schema.schema.description, schema.pointer, '`description`'));
    const fields = attempt(report, () => fieldsOf(document, schema));
    const requestExample = fields === undefined ? undefined : attempt(report, () => requestExampleOf(document, requestBody, identifier, fields, report));
    const successExample = success === undefined ? undefined : attempt(report, () => successExampleOf(success, identifier));
    // readLifecycle has reported an action without a readable entry; it is not reported twice.
    const transition = lifecycle?.transitions.find((candidate) => candidate.action === identifier);
    if (
      lifecycle === undefined || transition === undefined || success === undefined || title === undefined || description === undefined ||
      fields === undefined || requestExample === undefined || successExample === undefined
    ) {
      return undefined;
    }
    const refused = refusedStates(lifecycle, transition);
    return {
      identifier,
      title,
      description,
      deprecated: schema.schema.deprecated === true,
      fields,
      requestExample,
      successExample,
      moreSuccessExamples: success.examples.filter(
        (example) =>
          example.name !== identifier && isRecord(example.value) && example.value[requestBody.selector] === identifier,
      ),
      transition,
      refusedStates: refused,
      errors: errorsOf(responses, refused),
      pointer: schema.pointer,
    };
  });

  const complete = actions.filter((action): action is Action => action !== undefined);
  if (complete.length !== actions.length || lifecycle === undefined || success?.body === undefined || documentVersion === undefined) return undefined;
  const envelope = attempt(report, () => envelopeOf(requestBody, complete));
  if (envelope === undefined) return undefined;
  return { documentVersion, endpoint, envelope, actions: complete, lifecycle, responses, resultFields: success.bodyFields };
}

/** The whole model of a bundled document; a `ContractError` lists every problem of it, each with its place. */
export function readReferenceModel(document: OpenApiDocument): ReferenceModel {
  const model = readOrThrow((report) => checkReferenceModel(document, report));
  if (model === undefined) throw contractError('#', 'the reference model cannot be read');
  return model;
}

/** The model of the document the build bundled into `.generated/openapi/`, read once per bundle. */
// Pure: a bundle that never calls it (the Workers build) drops it and the file reading it needs.
export const loadReferenceModel = /* @__PURE__ */ oncePerBundle(readReferenceModel);
