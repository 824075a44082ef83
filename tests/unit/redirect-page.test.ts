/** Issue 27: the page `/reference/actions/` sends the reader on as a whole, valid document. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromHtml } from 'hast-util-from-html';
import { select } from 'hast-util-select';
import { redirectPageHtml } from '../../src/lib/site/redirect-page.ts';

const html = redirectPageHtml({ to: '/reference/', label: 'the API reference', siteUrl: 'https://docs.example' });
const page = fromHtml(html);
const attribute = (selector: string, name: string): unknown => select(selector, page)?.properties[name];

describe('the redirect page', () => {
  test('has a language and a charset', () => {
    assert.equal(attribute('html', 'lang'), 'en');
    assert.equal(attribute('meta[charset]', 'charSet'), 'utf-8');
  });

  test('refreshes as the HTML standard writes it: seconds, a semicolon, a space, url=', () => {
    assert.match(String(attribute('meta[http-equiv="refresh"]', 'content')), /^0; url=\/reference\/$/);
  });

  test('carries a policy that allows no script, no style and nothing from elsewhere', () => {
    const policy = String(attribute('meta[http-equiv="content-security-policy"]', 'content'));
    assert.match(policy, /(^|; )default-src 'none'(;|$)/);
    assert.doesNotMatch(policy, /script-src|style-src|unsafe/);
  });

  test('names its target for a reader and for search engines, and asks not to be indexed itself', () => {
    assert.equal(attribute('body a', 'href'), '/reference/');
    assert.equal(attribute('link[rel="canonical"]', 'href'), 'https://docs.example/reference/');
    assert.equal(attribute('meta[name="robots"]', 'content'), 'noindex');
  });

  test('escapes what it is given', () => {
    const escaped = redirectPageHtml({ to: '/a?b=1&c="2"', label: '<x>', siteUrl: 'https://docs.example' });
    assert.ok(escaped.includes('content="0; url=/a?b=1&amp;c=&quot;2&quot;"'), escaped);
    assert.ok(escaped.includes('<title>Redirecting to &lt;x&gt;</title>'), escaped);
  });
});
