/**
 * The published document passes the tools its readers run, not only our own gate: Spectral's
 * `spectral:oas` ruleset, a validator of the official OpenAPI 3.1 schema, and Prism, which must
 * accept every example of the document as a request or a response, headers included. Each tool
 * reads the bundle exactly as `/openapi/v1.json` ships it. The decisions behind the one rule
 * turned off are in openapi/README.md ("What other tools say").
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import prismHttp from '@stoplight/prism-http';
import prismValidator from '@stoplight/prism-http/dist/validator/index.js';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { dereference, isRecord, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { siteConfig } from '../../src/site-config.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { bundledDocument } from '../support/contract-copy.ts';

let document: OpenApiDocument;

before(() => {
  document = bundledDocument();
});

/** Spectral rules this project decided not to follow, each with the reason. */
const spectralRulesTurnedOff: Record<string, string> = {};

test('the contact the document names is the documentation site of the site configuration', () => {
  const contact = document.info.contact;
  assert.ok(isRecord(contact), 'info.contact is present');
  assert.equal(new URL(String(contact.url)).href, new URL(siteConfig.docsUrl).href);
});

describe('the bundled document, read by the tools its readers use', () => {
  test("Spectral's spectral:oas ruleset finds nothing", async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset(spectralRulesets.oas as RulesetDefinition);
    const results = await spectral.run(new spectralCore.Document(JSON.stringify(document, null, 2), spectralParsers.Json, 'v1.json'));
    const found = results
      .filter((result) => !(String(result.code) in spectralRulesTurnedOff))
      .map((result) => `${String(result.code)} at ${result.path.join('.')}: ${result.message}`);
    assert.deepEqual(found, []);
  });

  test('the official OpenAPI 3.1 schema accepts it', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    assert.equal(validator.version, '3.1');
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  describe('Prism accepts every example', () => {
    interface Located {
      label: string;
      value: unknown;
    }

    /** The named examples (and a single `example`) of a media type or a header. */
    function examplesOf(holder: unknown, label: string): Located[] {
      if (!isRecord(holder)) return [];
      const found: Located[] = [];
      if ('example' in holder) found.push({ label: `${label} example`, value: holder.example });
      for (const [name, example] of Object.entries(isRecord(holder.examples) ? holder.examples : {})) {
        const resolved = dereference<unknown>(document, example as never);
        if (isRecord(resolved) && 'value' in resolved) found.push({ label: `${label} example "${name}"`, value: resolved.value });
      }
      return found;
    }

    async function operation() {
      const operations = await prismHttp.getHttpOperationsFromSpec(structuredClone(document));
      assert.equal(operations.length, 1);
      const [only] = operations;
      assert.ok(only !== undefined);
      return only;
    }

    function violations(result: { _tag: string; left?: unknown }): string {
      return result._tag === 'Right' ? '' : JSON.stringify(result.left);
    }

    test('every request example, as the body of a request', async () => {
      const resource = await operation();
      const post = document.paths?.['/action']?.post;
      const body = dereference<Record<string, unknown>>(document, post?.requestBody as never);
      const examples = examplesOf((body.content as Record<string, unknown>)['application/json'], 'request');
      assert.ok(examples.length >= readReferenceModel(document).actions.length, 'one request example per action');
      for (const example of examples) {
        const result = prismValidator.validateInput({
          resource,
          element: { method: 'post', url: { path: '/action' }, headers: { 'content-type': 'application/json' }, body: example.value },
        });
        assert.equal(violations(result), '', example.label);
      }
    });

    test('every response example and every header example, as a response', async () => {
      const resource = await operation();
      const responses = document.paths?.['/action']?.post?.responses ?? {};
      let checked = 0;
      for (const [status, reference] of Object.entries(responses)) {
        const response = dereference<Record<string, unknown>>(document, reference as never);
        const headerExamples = Object.entries(isRecord(response.headers) ? response.headers : {}).flatMap(([name, header]) =>
          examplesOf(dereference<unknown>(document, header as never), `${status} header ${name}`).map((example) => ({ name, ...example })),
        );
        const bodyExamples = Object.entries(isRecord(response.content) ? response.content : {}).flatMap(([mediaType, content]) =>
          examplesOf(content, `${status} ${mediaType}`).map((example) => ({ mediaType, ...example })),
        );
        // Every header example is sent with the first body example, or alone for a response without a body.
        const bodies = bodyExamples.length > 0 ? bodyExamples : [undefined];
        const headerSets = headerExamples.length > 0 ? headerExamples : [undefined];
        for (const body of bodies) {
          for (const header of headerSets) {
            const headers: Record<string, string> = {};
            if (body !== undefined) headers['content-type'] = body.mediaType;
            if (header !== undefined) headers[header.name.toLowerCase()] = String(header.value);
            const result = prismValidator.validateOutput({
              resource,
              element: { statusCode: Number(status), headers, ...(body === undefined ? {} : { body: body.value }) },
            });
            assert.equal(violations(result), '', [body?.label, header?.label].filter(Boolean).join(' with '));
            checked += 1;
          }
        }
      }
      assert.ok(checked >= 10, `only ${checked} responses checked`);
    });
  });
});
