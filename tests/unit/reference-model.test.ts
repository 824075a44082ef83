import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { specifiedActions } from '../../src/gate/checks.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { sampleLanguages } from '../../src/lib/samples/code-samples.ts';
import { isRecord, resolvePointer } from '../../src/lib/contract/document.ts';
import { acceptedStates, lifecycleEdges, targetStates } from '../../src/lib/contract/lifecycle.ts';
import { actionPagePath, actionsIndexPath, endpointPagePath, generatedPaths, referenceIndexPath, referenceSidebarItems } from '../../src/lib/site/navigation.ts';
import { referencePages } from '../../src/lib/site/reference-pages.ts';
import { errorEnvelope, errorTable, rejectedKeyError } from '../../src/lib/contract/error-table.ts';
import { throttledResponse } from '../../src/lib/contract/response-lookups.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { drawStateDiagram } from '../../src/lib/site/diagrams/state-diagram.ts';
import { bundledDocument } from '../support/reference-fixture.ts';

const document = bundledDocument();
const model = readReferenceModel(document);

function action(identifier: string) {
  const found = model.actions.find((candidate) => candidate.identifier === identifier);
  assert.ok(found, `the model has ${identifier}`);
  return found;
}

function field(identifier: string, name: string) {
  const found = action(identifier).fields.find((candidate) => candidate.name === name);
  assert.ok(found, `${identifier} has the field ${name}`);
  return found;
}

describe('the endpoint', () => {
  test('is one POST on the operator site, with {site} explained and defaulting to a reserved name', () => {
    assert.equal(model.endpoint.method, 'POST');
    assert.equal(model.endpoint.urlTemplate, 'https://{site}/wp-json/service/v1/action');
    const [site] = model.endpoint.variables;
    assert.equal(site?.name, 'site');
    assert.match(site?.defaultValue ?? '', /\.example$/);
    assert.ok(site?.description.length, 'the variable is explained');
    assert.equal(model.endpoint.exampleUrl, `https://${site?.defaultValue}/wp-json/service/v1/action`);
  });

  test('names the version its server URL carries', () => {
    assert.equal(model.endpoint.urlPath, '/wp-json/service/v1/action');
    assert.equal(model.endpoint.versionSegment, 'v1');
    assert.equal(model.endpoint.versionNamespace, '/wp-json/service/v1/');
  });
});

describe('the actions', () => {
  // Version 1 may add actions (rule 9.4): the model holds one action per branch of the request
  // body, however many there are, and the eight the specification names are always among them.
  test('are one per branch of the request body, in the order of the oneOf, the specified ones among them', () => {
    const schema = resolvePointer(document, '#/components/requestBodies/ActionRequest/content/application~1json/schema');
    assert.ok(isRecord(schema) && Array.isArray(schema.oneOf));
    const branchTitles = schema.oneOf.map((branch: unknown) => {
      assert.ok(isRecord(branch) && typeof branch.$ref === 'string', 'each branch is a reference to an action schema');
      const target = resolvePointer(document, branch.$ref);
      assert.ok(isRecord(target));
      return target.title;
    });
    assert.deepEqual(model.actions.map((candidate) => candidate.title), branchTitles);
    const identifiers = model.actions.map((candidate) => candidate.identifier);
    assert.deepEqual(specifiedActions.filter((specified) => !identifiers.includes(specified)), [], 'every specified action is in the model');
  });

  test('carry the title and description of their schema', () => {
    const schema = resolvePointer(document, '#/components/schemas/PauseSubscriptionRequest');
    assert.ok(isRecord(schema));
    assert.equal(action('pause_subscription').title, schema.title);
    assert.equal(action('pause_subscription').description, schema.description);
    assert.equal(action('pause_subscription').deprecated, false);
  });

  test('have the request example and the success example named after them', () => {
    for (const candidate of model.actions) {
      assert.equal(candidate.requestExample.value.action, candidate.identifier);
      assert.ok(isRecord(candidate.successExample.value));
      assert.equal(candidate.successExample.value.action, candidate.identifier);
    }
    assert.ok(
      action('pause_subscription').moreSuccessExamples.some(
        (example) => isRecord(example.value) && example.value.changed === false,
      ),
      'the repeated pause, which changes nothing, is shown with pause_subscription',
    );
  });

  test('know the statuses they accept, lead to and refuse', () => {
    const pause = action('pause_subscription');
    assert.deepEqual(acceptedStates(pause.transition), ['active']);
    assert.deepEqual(targetStates(pause.transition), ['on-hold']);
    assert.ok(!pause.refusedStates.includes('on-hold'), 'the target itself answers changed: false, not 409');
    assert.ok(pause.refusedStates.includes('expired'));
    const change = action('change_status');
    assert.equal(change.transition.kind, 'chosen');
    assert.deepEqual(change.refusedStates, ['expired']);
  });

  test('list every error, and the conflict with the statuses they refuse', () => {
    const pause = action('pause_subscription');
    const conflict = pause.errors.find((error) => error.status === conflictStatus);
    assert.deepEqual(conflict?.refusedStates, pause.refusedStates);
    assert.equal(pause.errors.length, errorTable(model.responses).length);
  });
});

describe('the fields', () => {
  test('say name, type, required and constraints as the schema does', () => {
    const apiKey = field('pause_subscription', 'api_key');
    assert.equal(apiKey.type, 'string');
    assert.equal(apiKey.required, true);
    assert.deepEqual(
      apiKey.constraints.map((constraint) => constraint.keyword),
      ['minLength'],
    );
    assert.match(apiKey.constraints[0]?.label ?? '', /at least 1 character$/);

    const note = field('pause_subscription', 'note');
    assert.equal(note.required, false);
    assert.deepEqual(note.constraints, [{ keyword: 'maxLength', label: 'at most 500 characters', limit: 500 }]);

    const subscription = field('cancel_subscription', 'subscription_id');
    assert.equal(subscription.type, 'integer');
    assert.deepEqual(subscription.constraints, [{ keyword: 'minimum', label: 'at least 1', limit: 1 }]);

    const selector = field('trial_end', 'action');
    assert.deepEqual(selector.constraints, [{ keyword: 'const', label: 'always', values: ['trial_end'] }]);
  });

  test('take the description written beside a $ref over the shared one', () => {
    const status = field('change_status', 'status');
    const property = resolvePointer(document, '#/components/schemas/ChangeStatusRequest/properties/status');
    assert.ok(isRecord(property));
    assert.equal(status.description, property.description);
    assert.equal(status.required, true);
    assert.deepEqual(status.constraints[0]?.values, model.lifecycle.states);
  });

  test('of a response show an extensible enum as its known values, open to more, without the marker', () => {
    const action = model.resultFields.find((candidate) => candidate.name === 'action');
    assert.ok(action);
    assert.equal(action.type, 'string');
    assert.deepEqual(action.constraints, [
      { keyword: 'extensibleEnum', label: 'one of these, or a value a later release adds:', values: model.actions.map((candidate) => candidate.identifier) },
    ]);
    assert.doesNotMatch(action.description, /^Extensible enum\./);
    assert.match(action.description, /^The action that was performed/);
  });

  test('belong to the action that has them only', () => {
    assert.equal(field('payment_failed', 'order_id').required, false);
    assert.ok(!action('pause_subscription').fields.some((candidate) => candidate.name === 'order_id'));
  });

  test('shared by every action make the envelope, with the selector listing every identifier', () => {
    assert.deepEqual(
      model.envelope.sharedFields.map((candidate) => candidate.name),
      ['api_key', 'action', 'subscription_id', 'note'],
    );
    assert.equal(model.envelope.selector, 'action');
    assert.equal(model.envelope.credential, 'api_key', 'the one string besides the selector that every action requires');
    assert.equal(model.envelope.subject, 'subscription_id');
    const selector = model.envelope.sharedFields.find((candidate) => candidate.name === 'action');
    assert.deepEqual(
      selector?.constraints[0]?.values,
      model.actions.map((candidate) => candidate.identifier),
    );
  });
});

describe('the lifecycle', () => {
  test('has the statuses of the SubscriptionStatus enum and its final statuses', () => {
    const status = resolvePointer(document, '#/components/schemas/SubscriptionStatus');
    assert.ok(isRecord(status));
    assert.deepEqual(model.lifecycle.states, status.enum);
    assert.deepEqual(model.lifecycle.finalStates, ['expired']);
  });

  test('has every move of change_status as an edge', () => {
    const edges = lifecycleEdges(model.lifecycle);
    const moves = resolvePointer(document, '#/x-transitions/actions/change_status/moves');
    assert.ok(isRecord(moves));
    for (const [from, targets] of Object.entries(moves)) {
      for (const to of targets as string[]) {
        assert.ok(
          edges.some((edge) => edge.from === from && edge.to === to && edge.actions.includes('change_status')),
          `${from} → ${to}`,
        );
      }
    }
    assert.ok(!edges.some((edge) => model.lifecycle.finalStates.includes(edge.from)), 'nothing leaves a final status');
  });

  test('is drawn with a text alternative that names every status and action', () => {
    const diagram = drawStateDiagram(model.lifecycle, 'test');
    for (const [variant, { svg }] of [['wide', diagram.wide], ['narrow', diagram.narrow]] as const) {
      assert.match(svg, new RegExp(`^<svg [^>]*role="img"[^>]*aria-labelledby="test-${variant}-title test-${variant}-desc"`));
      assert.match(svg, new RegExp(`<title id="test-${variant}-title">[^<]+</title>`));
      assert.match(svg, new RegExp(`<desc id="test-${variant}-desc">[^<]+</desc>`));
      assert.doesNotMatch(svg, /<script/);
      for (const state of model.lifecycle.states) assert.ok(svg.includes(`>${state}</text>`), `the ${variant} box of ${state}`);
    }
    assert.doesNotMatch(diagram.html, /<script/);
    for (const state of model.lifecycle.states) {
      assert.ok(diagram.description.includes(state), `the description names ${state}`);
    }
    for (const transition of model.lifecycle.transitions) {
      assert.ok(diagram.description.includes(transition.action), `the description names ${transition.action}`);
    }
    for (const transition of model.lifecycle.transitions) {
      if (transition.kind !== 'fixed') continue;
      assert.ok(
        diagram.description.includes(`to ${transition.to}.`),
        `the description says where ${transition.action} leads`,
      );
    }
    assert.ok(diagram.legend.length > 0);
  });
});

describe('the responses', () => {
  test('give each error code the description of its const as "when"', () => {
    const rows = errorTable(model.responses);
    const invalidJson = rows.find((row) => row.code === 'rest_invalid_json');
    const oneOf = resolvePointer(document, '#/components/schemas/BadRequestError/properties/code/oneOf/0');
    assert.ok(isRecord(oneOf));
    assert.equal(invalidJson?.when, oneOf.description);
    assert.equal(invalidJson?.status, '400');
    const conflict = resolvePointer(document, '#/components/schemas/TransitionNotAllowedError/properties/code');
    assert.ok(isRecord(conflict));
    assert.deepEqual(
      rows.filter((row) => row.status === '409'),
      [{ status: '409', code: conflict.const, when: conflict.description }],
    );
  });

  test('cover every documented error status, the throttled one without a code', () => {
    const statuses = new Set(errorTable(model.responses).map((row) => row.status));
    assert.deepEqual([...statuses], ['400', '401', '404', '409', '429', '500']);
    const throttled = throttledResponse(model.responses);
    assert.equal(throttled.status, '429');
    assert.equal(throttled.body, undefined);
    const retryAfter = throttled.headers.find((header) => header.name === 'Retry-After');
    // The hosting environment sets it, so the document describes it without promising it.
    assert.equal(retryAfter?.required, false);
    assert.equal(retryAfter?.type, 'integer or string');
    assert.deepEqual(errorTable(model.responses).find((row) => row.status === '429')?.code, null);
  });

  test('name the error for a wrong key, the fields of every error body and the examples of Retry-After', () => {
    const invalidKey = resolvePointer(document, '#/components/schemas/InvalidApiKeyError/properties/code');
    assert.ok(isRecord(invalidKey));
    assert.deepEqual(rejectedKeyError(model.responses), { status: '401', code: invalidKey.const, when: invalidKey.description });
    assert.deepEqual(errorEnvelope(model.responses), ['code', 'message', 'data']);
    const retryAfter = throttledResponse(model.responses).headers.find((header) => header.name === 'Retry-After');
    assert.deepEqual(
      retryAfter?.examples.map((example) => typeof example.value),
      ['number', 'string'],
    );
  });
});

describe('the pages and the sidebar', () => {
  test('are one endpoint page and one page per action, titled by its identifier', () => {
    const pages = referencePages(model);
    assert.deepEqual(
      pages.map((page) => page.slug),
      ['endpoint', ...model.actions.map((candidate) => `actions/${candidate.identifier}`)],
    );
    for (const page of pages) {
      if (page.type !== 'action') continue;
      assert.equal(page.title, page.action.identifier);
      assert.deepEqual(
        page.samples.map((sample) => sample.language),
        sampleLanguages.map((entry) => entry.language),
      );
      for (const slug of ['fields', 'request-example', 'success-response', 'errors', 'code-samples']) {
        assert.ok(page.headings.some((heading) => heading.slug === slug), `${page.slug} has #${slug}`);
      }
    }
  });

  test('list the actions by identifier and badge a deprecated one', () => {
    assert.deepEqual(
      referenceSidebarItems(document).slice(2).map((item) => [item.label, item.link, item.badge]),
      model.actions.map((candidate) => [candidate.identifier, actionPagePath(candidate.identifier), undefined]),
    );
    assert.deepEqual(
      referenceSidebarItems(document).slice(0, 2).map((item) => item.link),
      [referenceIndexPath, endpointPagePath],
      'the reference opens with its index, then the endpoint',
    );
    const deprecated = bundledDocument();
    const schema = resolvePointer(deprecated, '#/components/schemas/TrialEndRequest');
    assert.ok(isRecord(schema));
    schema.deprecated = true;
    const item = referenceSidebarItems(deprecated).find((candidate) => candidate.label === 'trial_end');
    assert.deepEqual(item?.badge, { text: 'Deprecated', variant: 'caution' });
    assert.equal(readReferenceModel(deprecated).actions.find((a) => a.identifier === 'trial_end')?.deprecated, true);
  });
});

test('the generated paths are the pages and downloads the route and the endpoints build', () => {
  assert.deepEqual(generatedPaths(document), [
    referenceIndexPath,
    actionsIndexPath,
    endpointPagePath,
    ...referencePages(model)
      .filter((page) => page.type === 'action')
      .map((page) => `/reference/${page.slug}/`),
    '/openapi/v1.json',
    '/openapi/v1.yaml',
    '/openapi/v1.arazzo.yaml',
  ]);
});

describe('response bodies as a schema viewer reads them', () => {
  test('every error body lists its members, with the members of its nested `data`', () => {
    for (const response of model.responses.filter((candidate) => candidate.body !== undefined)) {
      const declared = Object.keys(response.body?.schema.properties ?? {});
      assert.deepEqual(response.bodyFields.map((field) => field.name), declared, `${response.status} body members`);
      if (!response.isError) continue;
      const data = response.bodyFields.find((field) => field.name === 'data');
      assert.ok(data, `${response.status} has data`);
      assert.ok(data.members.some((member) => member.name === 'status'), `${response.status} data.status`);
    }
    const conflict = model.responses.find((candidate) => candidate.status === '409');
    const conflictData = conflict?.bodyFields.find((field) => field.name === 'data');
    assert.deepEqual(conflictData?.members.map((member) => member.name), ['status', 'current_status', 'allowed_actions']);
  });

  test('an error code written as a choice of constants is listed as its values', () => {
    const badRequest = model.responses.find((candidate) => candidate.status === '400');
    const code = badRequest?.bodyFields.find((field) => field.name === 'code');
    const choice = code?.constraints.find((constraint) => constraint.keyword === 'oneOf');
    assert.deepEqual(choice?.values, badRequest?.errorCodes.map((error) => error.code));
  });

  test('a member added to a nested object in the document is read with no code change', () => {
    const changed = bundledDocument();
    const data = resolvePointer(changed, '#/components/schemas/TransitionErrorData');
    assert.ok(isRecord(data) && isRecord(data.properties));
    data.properties.retry_hint = { type: 'string', description: 'A hint added by a later release.' };
    const conflict = readReferenceModel(changed).responses.find((candidate) => candidate.status === '409');
    const members = conflict?.bodyFields.find((field) => field.name === 'data')?.members ?? [];
    assert.deepEqual(members.at(-1)?.name, 'retry_hint');
    assert.equal(members.at(-1)?.required, false);
  });
});
