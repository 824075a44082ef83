/**
 * What the conformance report prints of a request or an answer: never the key, in any spelling a
 * deployment could send it back in, and an HTML page by what a reader sees of it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerBodyText, describeRequest, hideKey, htmlSummary, keyPlaceholder } from '../../src/conformance/shown-text.ts';

const key = 'Shop/Key+2026-not-a-secret';

describe('the key is hidden in what the report prints', () => {
  test('as is, in another case, URL- and form-encoded, JSON-escaped with and without the slash escaped, and less its last character', () => {
    const spellings = [key, key.toUpperCase(), encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2), JSON.stringify(key).slice(1, -1), key.replaceAll('/', '\\/')];
    for (const spelling of spellings) {
      const shown = hideKey(`{"api_key":"${spelling}"}`, key);
      assert.equal(shown, `{"api_key":"${keyPlaceholder}"}`, spelling);
    }
    assert.doesNotMatch(hideKey(`{"api_key":"${key.slice(0, -1)}"}`, key), new RegExp(key.slice(0, 8)));
    assert.doesNotMatch(answerBodyText(`{"echo":"${key}"}`, key, 400), /Shop\/Key/);
  });

  test("a request with the key's first character only shows a placeholder for it", () => {
    const shown = describeRequest({ url: 'http://shop.test/wp-json/service/v1/action', request: { method: 'POST', path: '/', headers: {}, body: `{"api_key":"${key.slice(0, 1)}"}` } }, key);
    assert.doesNotMatch(shown, /"S"/);
  });
});

describe('an HTML answer', () => {
  test("is shown by its title and first body text, not by the styles in its head", () => {
    const page = `<!DOCTYPE html><html><head><title>WordPress &rsaquo; Error</title><style>${'body { color: #444; }\n'.repeat(40)}</style></head><body id="error-page"><div class="wp-die-message"><p>There has been a critical error on this website.</p></div></body></html>`;
    assert.equal(htmlSummary(page), 'HTML page: title "WordPress › Error", body "There has been a critical error on this website."');
    assert.match(answerBodyText(page, key, 400), /^HTML page: title/);
  });

  test('without a body element, the title is not repeated as the body; JSON is left as it is', () => {
    assert.equal(htmlSummary('<!doctype html><title>Not found</title>'), 'HTML page: title "Not found"');
    assert.equal(htmlSummary('{"code":"x"}'), undefined);
  });
});
