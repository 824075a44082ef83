import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { successResponse } from '../../src/lib/contract/response-lookups.ts';
import { conflictStatus } from '../../src/lib/contract/response-names.ts';
import { bundledDocument } from '../support/reference-fixture.ts';

/**
 * The tolerant reader, proved the way an integrator meets it: a client that validates every
 * answer against the published document, with Ajv in strict mode on JSON Schema 2020-12 (the
 * dialect of OpenAPI 3.1), accepts a response from a later release of version 1 that carries
 * one more field and an action it does not know, while a request stays strict and a response
 * that lacks a field, or names an unknown status, is still refused.
 */

// ajv and ajv-formats are CommonJS; `createRequire` gives their constructors without interop guesswork.
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

/** The document `/openapi/v1.json` publishes: Redocly's bundle of `openapi/`. */
const document = bundledDocument();
const model = readReferenceModel(document);
const schemaBase = 'https://published.invalid/openapi/v1.json/components/schemas/';

/** Points `#/components/schemas/X` at the schema registered under `X`, as a client generator resolves it. */
function resolvedReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolvedReferences);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === '$ref' && typeof member === 'string' && member.startsWith('#/components/schemas/')
        ? `${schemaBase}${member.slice('#/components/schemas/'.length)}`
        : resolvedReferences(member),
    ]),
  );
}

/** A strict validator for every component schema of the published document. */
function strictValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    ajv.addSchema({ ...(resolvedReferences(schema) as object), $id: `${schemaBase}${name}` });
  }
  return ajv;
}

const ajv = strictValidator();

/** Validates a value against the JSON schema of a documented response, as the client would. */
function validateResponse(status: string, value: unknown): string[] {
  const response = model.responses.find((candidate) => candidate.status === status);
  assert.ok(response?.body, `the ${status} response has a JSON body`);
  const validate = ajv.getSchema(`${schemaBase}${response.body.pointer.split('/').at(-1)}`);
  assert.ok(validate, `the ${status} body is a component schema: ${response.body.pointer}`);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

const success = successResponse(model.responses);
/** The action the examples come from, looked up inside each test, so that a missing one fails that test. */
function pauseAction() {
  const pause = model.actions.find((action) => action.identifier === 'pause_subscription');
  assert.ok(pause, 'the document has pause_subscription');
  return pause;
}
const newAction = 'renew_subscription';

describe('[9.4] a client that validates strictly against the published document', () => {
  test('compiles every response schema in strict mode', () => {
    for (const response of model.responses) {
      if (response.body === undefined) continue;
      assert.deepEqual(validateResponse(response.status, response.examples[0]?.value), [], `the first ${response.status} example is valid`);
    }
  });

  test('accepts a success from a later release: one more field, and an action it does not know', () => {
    assert.ok(!model.actions.some((action) => action.identifier === newAction), 'the made-up action is not one of today');
    const pause = pauseAction();
    const later = { ...(pause.successExample.value as object), action: newAction, next_payment_date: '2026-12-20' };
    assert.deepEqual(validateResponse(success.status, later), []);
  });

  test('accepts a refusal from a later release: a new action among the allowed ones, and one more detail', () => {
    const conflict = model.responses.find((response) => response.status === conflictStatus);
    const example = conflict?.examples.find((candidate) => isRecord(candidate.value) && isRecord(candidate.value.data) && Array.isArray(candidate.value.data.allowed_actions));
    assert.ok(conflict && example && isRecord(example.value) && isRecord(example.value.data));
    const later = {
      ...example.value,
      data: { ...example.value.data, allowed_actions: [...(example.value.data.allowed_actions as string[]), newAction], retry_hint: 'none' },
      documentation_url: 'https://docs.example/errors',
    };
    assert.deepEqual(validateResponse(conflict.status, later), []);
  });

  test('still refuses a success that lacks a field, or names a status no release has', () => {
    const pause = pauseAction();
    const value = pause.successExample.value as Record<string, unknown>;
    const { changed: _dropped, ...withoutChanged } = value;
    assert.notDeepEqual(validateResponse(success.status, withoutChanged), []);
    assert.notDeepEqual(validateResponse(success.status, { ...value, status: 'suspended' }), []);
  });

  test('still refuses a request with a field the action does not know: requests stay strict', () => {
    const pause = pauseAction();
    const branch = ajv.getSchema(`${schemaBase}${pause.pointer.split('/').at(-1)}`);
    assert.ok(branch);
    assert.equal(branch(pause.requestExample.value), true, 'the request example is valid');
    assert.equal(branch({ ...pause.requestExample.value, newer_field: true }), false);
    assert.equal(branch.errors?.[0]?.keyword, 'additionalProperties');
  });
});
