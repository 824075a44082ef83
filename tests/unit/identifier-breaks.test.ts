import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markIdentifierBreaks } from '../../src/lib/site/identifier-breaks.ts';

describe('where identifiers may wrap', () => {
  test('inline code and a heading that is one identifier break after _ - / . and nowhere else', () => {
    assert.equal(markIdentifierBreaks('<p><code>service_transition_not_allowed</code></p>'), '<p><code>service_<wbr>transition_<wbr>not_<wbr>allowed</code></p>');
    assert.equal(markIdentifierBreaks('<h1 id="_top" class="x">pause_subscription</h1>'), '<h1 id="_top" class="x">pause_<wbr>subscription</h1>');
    assert.equal(markIdentifierBreaks('<code>/wp-json/service/v1</code>'), '<code>/<wbr>wp-<wbr>json/<wbr>service/<wbr>v1</code>');
  });

  test('a short identifier is marked to stay whole on a wide screen, its own class kept; a long one, words or a plain word are not', () => {
    assert.equal(markIdentifierBreaks('<td><code>pending-cancel</code></td>'), '<td><code class="short-identifier">pending-<wbr>cancel</code></td>');
    assert.equal(markIdentifierBreaks('<code class="astro-x">on-hold</code>'), '<code class="astro-x short-identifier">on-<wbr>hold</code>');
    assert.equal(markIdentifierBreaks('<code>rest_invalid_param</code>'), '<code>rest_<wbr>invalid_<wbr>param</code>');
    assert.equal(markIdentifierBreaks('<code>--api-key KEY</code>'), '<code>--<wbr>api-<wbr>key KEY</code>');
    assert.equal(markIdentifierBreaks('<code>active</code>'), '<code>active</code>');
  });

  test('a heading of words, a code block and code with markup inside are left as they are', () => {
    for (const html of ['<h2 id="code-samples">Code samples</h2>', '<pre class="x"><code>a_b</code></pre>', '<code><span>a_b</span></code>']) {
      assert.equal(markIdentifierBreaks(html), html);
    }
  });
});
