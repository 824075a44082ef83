/**
 * `npm run lint` refuses every contract the build refuses. Every refusal the reference model can
 * make is read from its code (tests/support/model-refusals.ts); each is paired here with an edit
 * that breaks a copy of the bundled contract so, and the gate's model step, run in process on that
 * copy, must name it at a file of `openapi/`. A new check of the model without an edit here fails
 * the first test. tests/integration/lint-refuses-model.test.ts proves the same through the real
 * `npm run lint` on copies of the project.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { referenceModelProblems, referenceModelRule, referenceModelStep } from '../../src/gate/model-step.ts';
import { contractRoot } from '../../src/lib/contract/bundle.ts';
import type { OpenApiDocument } from '../../src/lib/contract/document.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';
import { modelRefusalSites } from '../support/model-refusals.ts';

/** A node of the parsed JSON document, edited freely as the other tests that break a bundle do. */
type Json = Record<string, any>;

/** A node of the document, its local `$ref` followed. */
function followed(d: Json, node: Json): Json {
  const reference = node.$ref;
  if (typeof reference !== 'string') return node;
  return followed(d, reference.slice(2).split('/').reduce((parent: Json, key: string) => parent[key.replaceAll('~1', '/').replaceAll('~0', '~')], d));
}

/** The parts of the bundled document the edits reach into. */
function partsOf(document: OpenApiDocument) {
  const d = document as unknown as Json;
  const components = d.components;
  const request = components.requestBodies.ActionRequest.content['application/json'];
  const responses = components.responses;
  const conflictExamples = responses.TransitionNotAllowed.content['application/json'].examples;
  return {
    d,
    schemas: components.schemas,
    request,
    pauseExample: followed(d, request.examples.pause_subscription).value,
    pauseExampleObject: followed(d, request.examples.pause_subscription),
    responses,
    operation: d.paths['/action'].post,
    successExamples: responses.ActionSucceeded.content['application/json'].examples,
    conflictExample: followed(d, conflictExamples.trial_cannot_be_paused),
    conflictExamples,
    unknownFieldExample: followed(d, responses.BadRequest.content['application/json'].examples.unknown_field),
    table: d['x-transitions'],
  };
}

type Parts = ReturnType<typeof partsOf>;

/**
 * An edit per refusal, keyed by its id (`file: message as written`). `unreachable` stands where the
 * model's step cannot meet the problem in any bundled document, with the reason; every other entry
 * is an edit of the contract that makes the model refuse it.
 */
const breakers: Record<string, ((parts: Parts) => void) | { unreachable: string }> = {
  'src/lib/contract/actions.ts: is missing: every action needs a request example named after it': ({ request }) => delete request.examples.pause_subscription,
  'src/lib/contract/actions.ts: the request example is expected to be a JSON object': ({ pauseExampleObject }) => (pauseExampleObject.value = 'pause'),
  'src/lib/contract/actions.ts: is missing: the ${success.status} response needs an example named after every action': ({ successExamples }) => delete successExamples.pause_subscription,
  'src/lib/contract/actions.ts: the request body offers no action': ({ request }) => {
    request.schema.oneOf = [];
    request.schema.discriminator.mapping = {};
  },
  'src/lib/contract/actions.ts: the reference model cannot be read': { unreachable: 'a guard of readReferenceModel: checkReferenceModel gives no model only after reporting why' },
  "src/lib/contract/actions.ts: the example's `${requestBody.selector}` is expected to be `${identifier}`": ({ pauseExample }) => (pauseExample.action = 'resume_subscription'),
  'src/lib/contract/actions.ts: sends `${unknown}`, which ${identifier} does not accept': ({ pauseExample }) => (pauseExample.colour = 'blue'),
  'src/lib/contract/actions.ts: lacks the required field `${missing.name}`': ({ pauseExample }) => delete pauseExample.subscription_id,
  'src/lib/contract/actions.ts: the success response has no JSON body': ({ responses }) => delete responses.ActionSucceeded.content,
  'src/lib/contract/document.ts: is not an OpenAPI 3.1 document with `info` and `paths`': { unreachable: 'the gate reads the bundle with asOpenApiDocument before any step; a bundle without paths stops there' },
  'src/lib/contract/endpoint.ts: the service has exactly one endpoint, but the contract describes: ${found}': ({ d }) => (d.paths['/other'] = d.paths['/action']),
  'src/lib/contract/endpoint.ts: no server URL is given for the endpoint': ({ d }) => (d.servers = []),
  'src/lib/contract/endpoint.ts: the URL uses {${name}} but does not define it': ({ d }) => (d.servers[0].url = 'https://{site}/{base}/wp-json/service/v1'),
  'src/lib/contract/endpoint.ts: the URL has no version segment such as `v1` in its path': ({ d }) => (d.servers[0].url = 'https://{site}/wp-json/service'),
  'src/lib/contract/facts.ts: the ${retryAfterHeader} header has no example ${form}': ({ responses }) => {
    const header = responses.TooManyRequests.headers['Retry-After'];
    for (const [name, example] of Object.entries<Json>(header.examples)) if (typeof example.value === 'number') delete header.examples[name];
  },
  "src/lib/contract/facts.ts: the endpoint URL does not use WordPress's `/wp-json/` prefix": ({ d }) => (d.servers[0].url = 'https://{site}/api/service/v1'),
  'src/lib/contract/fields.ts: `${String(keyword)}` is expected to be a number': ({ schemas }) => (schemas.Note.maxLength = 'ten'),
  'src/lib/contract/fields.ts: `${keyword}` values are expected to be plain JSON values': ({ schemas }) => (schemas.Note.enum = [{ text: 'a note' }]),
  'src/lib/contract/fields.ts: requires `${name}`, which is not one of its properties': ({ schemas }) => schemas.ActionResult.required.push('receipt'),
  'src/lib/contract/lifecycle.ts: The document has no x-transitions table; the states page and the 409 rules are generated from it.': ({ d }) => delete d['x-transitions'],
  'src/lib/contract/lifecycle.ts: There is no SubscriptionStatus schema with an enum of the states, so the transition table cannot be checked.': ({ schemas }) => delete schemas.SubscriptionStatus.enum,
  'src/lib/contract/lifecycle.ts: ${what} must be a list of states.': ({ table }) => (table.final = 'expired'),
  "src/lib/contract/lifecycle.ts: ${what} names ${quoteList(unknown)}, which ${unknown.length === 1 ? 'is not a state' : 'are not states'} of SubscriptionStatus (${states.join(', ')}).": ({ table }) => (table.final = ['deleted']),
  'src/lib/contract/lifecycle.ts: x-transitions has no "actions" map from each action to the states it accepts.': ({ table }) => delete table.actions,
  'src/lib/contract/lifecycle.ts: x-transitions lists "${name}", which is not one of the actions of the request body.': ({ table }) => (table.actions.refund_subscription = { from: ['active'], to: 'cancelled' }),
  'src/lib/contract/lifecycle.ts: x-transitions has no entry for ${identifier}; every action needs its transitions: the states it accepts.': ({ table }) => delete table.actions.pause_subscription,
  'src/lib/contract/lifecycle.ts: The entry of ${identifier} must say which states it accepts.': ({ table }) => (table.actions.pause_subscription = 'active'),
  'src/lib/contract/lifecycle.ts: The entry of ${identifier} has moves, so "toField" must name the request field that holds the target state, a required field of ${identifier}.': ({ table }) => (table.actions.change_status.toField = 'target'),
  'src/lib/contract/lifecycle.ts: The moves of ${identifier} must map each state to the states it may move to.': ({ table }) => (table.actions.change_status.moves = 'anywhere'),
  "src/lib/contract/lifecycle.ts: ${from} is a final state, yet ${identifier} moves out of it to ${targets.join(', ')}.": ({ table }) => (table.actions.change_status.moves.expired = ['active']),
  'src/lib/contract/lifecycle.ts: ${state} is a final state, yet ${identifier} accepts it and leads out of it.': ({ table }) => table.actions.pause_subscription.from.push('expired'),
  'src/lib/contract/request-body.ts: the request body has no JSON content': ({ d }) => delete d.components.requestBodies.ActionRequest.content['application/json'],
  'src/lib/contract/request-body.ts: the request body is expected to be a `oneOf` of actions': ({ request }) => (request.schema = { type: 'object' }),
  'src/lib/contract/request-body.ts: the `oneOf` needs a `discriminator` with an explicit `mapping`': ({ request }) => delete request.schema.discriminator,
  'src/lib/contract/request-body.ts: maps to ${target}, which ${identifierOf.get(target)} already maps to': ({ request }) => {
    const mapping = request.schema.discriminator.mapping;
    mapping.pause_subscription = mapping.cancel_subscription;
  },
  'src/lib/contract/request-body.ts: is not named by the discriminator mapping, so no action identifier selects it': ({ request }) => delete request.schema.discriminator.mapping.pause_subscription,
  "src/lib/contract/request-body.ts: maps to ${target}, which is not one of the request body's `oneOf`": ({ request }) => (request.schema.discriminator.mapping.add_note = '#/components/schemas/Note'),
  'src/lib/contract/request-body.ts: has no `${selector}` property to select it': ({ schemas }) => delete schemas.PauseSubscriptionRequest.properties.action,
  'src/lib/contract/request-body.ts: is expected to be `const: ${identifier}`, the identifier that maps to this schema': ({ schemas }) => (schemas.PauseSubscriptionRequest.properties.action.const = 'pause'),
  'src/lib/contract/request-body.ts: `${selector}` is expected to be required': ({ schemas }) => {
    const pause = schemas.PauseSubscriptionRequest;
    pause.required = pause.required.filter((name: string) => name !== 'action');
  },
  'src/lib/contract/responses.ts: the ${status} body has no `${errorCodeField}` property for clients to branch on': ({ schemas }) => delete schemas.BadRequestError.properties.code,
  'src/lib/contract/responses.ts: the ${status} body has no `${errorDataField}` member': ({ schemas }) => delete schemas.BadRequestError.properties.data,
  'src/lib/contract/responses.ts: `${errorStatusMember}` is expected to be a required member: WordPress repeats the HTTP status there': ({ schemas }) => {
    const data = schemas.ParameterErrorData;
    data.required = data.required.filter((name: string) => name !== 'status');
  },
  'src/lib/contract/responses.ts: is expected to be `const: ${status}`, the status of the response that carries it': ({ schemas }) => (schemas.ParameterErrorData.properties.status.const = 500),
  'src/lib/contract/responses.ts: the example has no `value`': ({ conflictExample }) => delete conflictExample.value,
  'src/lib/contract/responses.ts: the endpoint documents no responses': ({ operation }) => (operation.responses = {}),
  'src/lib/contract/response-lookups.ts: no response carries a `${retryAfterHeader}` header, so clients cannot be told how long to wait': ({ responses }) => delete responses.TooManyRequests.headers,
  'src/lib/contract/response-lookups.ts: no ${status} response is documented, the answer ${meaning}': ({ operation }) => delete operation.responses['409'],
  'src/lib/contract/refusal-details.ts: the example has no `${errorCodeField}`': ({ unknownFieldExample }) => delete unknownFieldExample.value.code,
  'src/lib/contract/refusal-details.ts: the example\'s code `${code}` is not one the ${response.status} response documents': ({ unknownFieldExample }) => (unknownFieldExample.value.code = 'service_busy'),
  'src/lib/contract/refusal-details.ts: `${detailsMember}` is expected to be an object': { unreachable: 'nestedMember names only a member whose value is an object' },
  'src/lib/contract/refusal-details.ts: `${detailsMember}` is expected to be an object #2': { unreachable: 'nestedMember names only a member whose value is an object' },
  'src/lib/contract/error-table.ts: no error response documents the code `${code}`, ${meaning}': ({ schemas }) => {
    const code = schemas.NotFoundError.properties.code;
    code.oneOf = code.oneOf.filter((choice: Json) => choice.const !== 'rest_no_route');
  },
  'src/lib/contract/response-shapes.ts: the success body has no `${name}` member (${role})': ({ schemas }) => {
    const result = schemas.ActionResult;
    delete result.properties.subscription_id;
    result.required = result.required.filter((name: string) => name !== 'subscription_id');
  },
  "src/lib/contract/response-shapes.ts: the success body is expected to carry two subscription statuses (before and after), found ${statusFields.map((field) => field.name).join(', ') || 'none'}": ({ schemas }) => {
    const result = schemas.ActionResult;
    delete result.properties.previous_status;
    result.required = result.required.filter((name: string) => name !== 'previous_status');
  },
  'src/lib/contract/response-shapes.ts: no success example of an action with a fixed target tells the status before from the status after': ({ d, successExamples }) => (followed(d, successExamples.cancel_subscription).value = 'cancelled'),
  'src/lib/contract/response-shapes.ts: the success body has no status before the request': { unreachable: 'it is read after exactly two status members were found and one of them named the status after' },
  'src/lib/contract/response-shapes.ts: the ${response.status} response does not list the code `${code}`': ({ schemas }) => {
    const code = schemas.BadRequestError.properties.code;
    code.oneOf = code.oneOf.filter((choice: Json) => choice.const !== 'rest_invalid_json');
  },
  'src/lib/contract/response-shapes.ts: the ${response.status} response has no JSON body': ({ responses }) => delete responses.BadRequest.content,
  'src/lib/contract/response-shapes.ts: the ${response.status} body has no `${errorDataField}` member': ({ schemas }) => delete schemas.TransitionNotAllowedError.properties.data,
  'src/lib/contract/document.ts: only local references are expected in a bundled document': { unreachable: 'a program asks it with a pointer the model gave; a reference in the document goes through resolveReference, which names the reference instead (schemas.ts)' },
  'src/lib/contract/document.ts: cannot descend into "${segment}"': { unreachable: 'a program asks it with a pointer the model gave; a reference in the document goes through resolveReference, which names the reference instead (schemas.ts)' },
  'src/lib/contract/document.ts: "${segment}" does not exist': { unreachable: 'a program asks it with a pointer the model gave; a reference in the document goes through resolveReference, which names the reference instead (schemas.ts)' },
  'src/lib/contract/document.ts: is a circular reference': { unreachable: 'dereference is the releases\' reader (src/lib/releases/comparison.ts), not the model\'s' },
  'src/lib/contract/fields.ts: has no `type`, so the pages cannot say what to send': ({ schemas }) => (schemas.Note = { description: 'A note for the history.' }),
  'src/lib/contract/fields.ts: is expected to be an object schema with `properties`': ({ schemas }) => delete schemas.ActionResult.properties,
  'src/lib/contract/schema-validator.ts: is not a schema of the bundled document': { unreachable: 'schemaAt is asked by the sandbox and the suite with a pointer the model gave, never with one the document chooses' },
  'src/lib/contract/schema-validator.ts: is expected to be a schema object': { unreachable: 'schemaAt is asked by the sandbox and the suite with a pointer the model gave, never with one the document chooses' },
  'src/lib/contract/schemas.ts: is expected to be a list': ({ schemas }) => (schemas.TransitionNotAllowedError.properties.code = { type: 'string', oneOf: 'service_transition_not_allowed' }),
  'src/lib/contract/refusal-details.ts: the example is expected to be an object': ({ conflictExample }) => (conflictExample.value = 'refused'),
  'src/lib/contract/refusal-details.ts: `${allowedActions}` is expected to list strings': ({ conflictExample }) => (conflictExample.value.data.allowed_actions = [1]),
  'src/lib/contract/refusal-details.ts: the conflict response needs an example': ({ responses }) => (responses.TransitionNotAllowed.content['application/json'].examples = {}),
  'src/lib/contract/refusal-details.ts: names its details differently from the other examples': ({ conflictExample }) => {
    const data = conflictExample.value.data;
    data.state = data.current_status;
    delete data.current_status;
  },
  'src/lib/contract/responses.ts: each error code is expected to be a string `const`': ({ schemas }) => (schemas.TransitionNotAllowedError.properties.code.const = 409),
  'src/lib/contract/responses.ts: the code `${schema.const}` needs a description: it says when the error happens': ({ schemas }) => delete schemas.TransitionNotAllowedError.properties.code.description,
  'src/lib/contract/responses.ts: the response has no description': ({ responses }) => delete responses.NotFound.description,
  'src/lib/contract/schemas.ts: refers to ${ref}, which does not exist in the bundled document': ({ schemas }) => (schemas.PauseSubscriptionRequest.properties.note = { $ref: '#/components/schemas/Remark' }),
  'src/lib/contract/schemas.ts: is a circular reference: ${[...followed, $ref].join(\' → \')}': ({ schemas }) => (schemas.Note = { $ref: '#/components/schemas/Note' }),
  'src/lib/contract/schemas.ts: is expected to be a schema object': ({ schemas }) => (schemas.Note = 'a note'),
  'src/lib/contract/schemas.ts: has a circular reference through ${current.$ref}': ({ responses }) => (responses.NotFound = { $ref: '#/components/responses/NotFound' }),
  'src/lib/contract/schemas.ts: is expected to be an object': ({ responses }) => (responses.NotFound = 'not found'),
  "src/lib/contract/schemas.ts: exactly one ${what} is expected, found ${items.map(nameOf).join(', ') || 'none'}": ({ operation }) => (operation.responses['201'] = operation.responses['200']),
  'src/lib/contract/schemas.ts: ${what} is missing or empty': ({ schemas }) => delete schemas.PauseSubscriptionRequest.title,
  'src/lib/contract/example-truth.ts: the example of ${action.identifier} names the action `${String(value[result.action])}`': ({ d, successExamples }) =>
    (followed(d, successExamples.trial_end).value.action = 'pause_subscription'),
  'src/lib/contract/example-truth.ts: ${action.identifier} refuses a subscription that is ${before}, yet the example shows it answering ${before} → ${after} (x-transitions)': ({ d, successExamples }) =>
    (followed(d, successExamples.pause_subscription).value.previous_status = 'expired'),
  'src/lib/contract/example-truth.ts: ${action.identifier} leads from ${before} to ${expectedAfter} in x-transitions, yet the example says `${after}`': ({ d, successExamples }) =>
    (followed(d, successExamples.pause_subscription).value.status = 'cancelled'),
  'src/lib/contract/example-truth.ts: ${action.identifier} from ${before} to ${after} answers `${result.changed}: ${String(changed)}`, yet the example says `${String(value[result.changed])}`': ({ d, successExamples }) =>
    (followed(d, successExamples.repeated_action).value.changed = true),
  'src/lib/contract/example-truth.ts: for a subscription that is ${example.status}, the example ${differences.join(\' and \')}': ({ conflictExample }) => {
    const data = conflictExample.value.data;
    data.allowed_actions = data.allowed_actions.filter((name: string) => name !== 'payment_failed');
  },
  'src/lib/contract/facts.ts: repeats ${quickstart.action.identifier}, which refuses no status, so the guides cannot show the conflict its repetition leads to': ({ table, schemas }) => {
    table.final = [];
    table.actions.pause_subscription.from = schemas.SubscriptionStatus.enum.filter((state: string) => state !== table.actions.pause_subscription.to);
  },
  'src/lib/samples/sample-statuses.ts: the error bodies do not all require `${member}`, which the samples read': ({ schemas }) => {
    const error = schemas.NotFoundError;
    error.required = error.required.filter((name: string) => name !== 'message');
  },
  'src/lib/samples/action-sample/wordpress.ts: the PHP sample posts with wp_remote_post(), but the operation is not a POST': { unreachable: "Redocly lint's rule/post-only (redocly.yaml) refuses any other method before the model step runs" },
  'src/lib/samples/action-sample/php.ts: the PHP sample posts with CURLOPT_POST, but the operation is not a POST': { unreachable: "Redocly lint's rule/post-only (redocly.yaml) refuses any other method before the model step runs" },
  'src/lib/contract/route-arguments.ts: the field ${field.name} is of type ${field.type}, which a WordPress route argument does not describe yet': ({ schemas }) =>
    (schemas.PauseSubscriptionRequest.properties.tags = { type: 'object', properties: { colour: { type: 'string' } }, description: 'Labels.' }),
  'src/lib/contract/route-arguments.ts: ${field.name} has another schema in ${action.identifier} than in an earlier action; one route argument cannot describe both': ({ schemas }) =>
    (schemas.PauseSubscriptionRequest.properties.note = { type: 'string', maxLength: 3, description: 'A shorter note.' }),
  'src/sandbox/walkthrough.ts: no seeded subscription is in a status ${quickAction.identifier} refuses': {
    unreachable: "facts.ts refuses first a quickstart action that refuses no status (its edit above), and the default seed holds one subscription in every status",
  },
};

const sites = modelRefusalSites();

describe('npm run lint refuses every contract the model refuses', () => {
  test('every refusal of the model, read from its code, has an edit here that makes it', () => {
    const ids = new Set(sites.map((site) => site.id));
    assert.ok(sites.length > 60, `the model's refusals are read from its code (${sites.length} found)`);
    assert.deepEqual(sites.filter((site) => !(site.id in breakers)).map((site) => `${site.file}:${site.line}: ${site.template}`), [], 'refusals of the model with no edit in this test');
    assert.deepEqual(Object.keys(breakers).filter((id) => !ids.has(id)), [], 'edits of this test for refusals the model no longer makes');
  });

  test('a schema the validator cannot compile is a problem at that schema, not a crash of the gate', () => {
    const document = bundledDocument();
    partsOf(document).schemas.Note.type = 'strng';
    const problems = referenceModelProblems(document);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0]?.location, '#/components/schemas/Note');
    assert.match(problems[0]?.message ?? '', /^The model cannot read the document: schema is invalid: data\/\$defs\/Note\/type/);
  });

  test('the contract as it is passes the model', () => {
    assert.deepEqual(referenceModelProblems(bundledDocument()), []);
  });

  for (const site of sites) {
    const breaker = breakers[site.id];
    if (breaker === undefined || typeof breaker !== 'function') continue;
    test(`${site.file}:${site.line}: ${site.template}`, () => {
      const document = bundledDocument();
      breaker(partsOf(document));
      const problems = referenceModelStep.run({ projectDirectory, root: contractRoot, document, bundlePath: '', format: 'stylish' });
      assert.ok(!(problems instanceof Promise));
      const named = problems.find((problem) => site.pattern.test(problem.message));
      assert.ok(named !== undefined, `no problem says ${site.pattern}; the model said:\n${problems.map((problem) => problem.message).join('\n')}`);
      assert.equal(named.rule, referenceModelRule);
      assert.match(named.file, /^openapi\//);
    });
  }
});
