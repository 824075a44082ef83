import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { specifiedActions } from './eight-actions.ts';
import { branchName, problemsAfter, problemsOf, reportedAfter, smallContract } from './small-contract.ts';
import { tolerantReaderRule } from './tolerant-reader.ts';

const [firstAction = '', secondAction = ''] = specifiedActions;

describe('tolerant-reader', () => {
  test('accepts strict requests and open responses', () => {
    assert.deepEqual(problemsOf(tolerantReaderRule, smallContract()), []);
  });

  test('rejects an action that accepts fields it does not list, and a loose object inside a request', () => {
    const reported = reportedAfter(tolerantReaderRule, (document) => {
      delete document.components.schemas[branchName(firstAction)].additionalProperties;
      document.components.schemas[branchName(secondAction)].properties.options = { type: 'object', properties: { note: { type: 'string' } } };
    });
    assert.match(reported, new RegExp(`The ${firstAction} branch does not set "additionalProperties: false"; requests stay strict`));
    assert.match(reported, new RegExp(`/properties/options: An object inside the ${secondAction} request does not set "additionalProperties: false"`));
  });

  test('rejects a response closed to fields that later releases add, however deep', () => {
    const problems = problemsAfter(tolerantReaderRule, (document) => {
      document.components.schemas.ActionResult.additionalProperties = false;
      document.components.schemas.ActionResult.properties.detail = { $ref: '#/components/schemas/Detail' };
      document.components.schemas.Detail = { type: 'object', additionalProperties: false };
    });
    assert.deepEqual(problems.map((problem) => problem.location).sort(), ['#/components/schemas/ActionResult', '#/components/schemas/Detail']);
    assert.ok(problems.every((problem) => /responses stay open/.test(problem.message)));
  });

  test('rejects one object schema shared by a request and a response', () => {
    const reported = reportedAfter(tolerantReaderRule, (document) => {
      document.components.schemas.Detail = { type: 'object', additionalProperties: false };
      document.components.schemas[branchName(firstAction)].properties.detail = { $ref: '#/components/schemas/Detail' };
      document.components.schemas.ActionResult.properties.detail = { $ref: '#/components/schemas/Detail' };
    });
    assert.match(reported, /used by the .* request and by a response; .* one schema cannot serve both/);
  });

  test('rejects action identifiers listed as a closed enum in a response', () => {
    const reported = reportedAfter(tolerantReaderRule, (document) => {
      document.components.schemas.ActionName = { type: 'string', enum: [...specifiedActions] };
    });
    assert.match(reported, /^#\/components\/schemas\/ActionName: A response schema lists action identifiers as a closed "enum"/);
  });
});
