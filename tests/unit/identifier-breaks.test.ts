import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { identifierParts, markIdentifierBreaks } from '../../src/lib/site/identifier-breaks.ts';

describe('where identifiers may wrap', () => {
  test('inline code and a heading that is one identifier break after _ - / . ? and nowhere else', () => {
    assert.equal(markIdentifierBreaks('<p><code>service_transition_not_allowed</code></p>'), '<p><code class="whole-identifier">service_<wbr>transition_<wbr>not_<wbr>allowed</code></p>');
    assert.equal(markIdentifierBreaks('<h1 id="_top" class="x">pause_subscription</h1>'), '<h1 id="_top" class="x">pause_<wbr>subscription</h1>');
    assert.equal(markIdentifierBreaks('<code>/wp-json/service/v1</code>'), '<code class="whole-identifier">/<wbr>wp-<wbr>json/<wbr>service/<wbr>v1</code>');
  });

  test('every identifier, short or long, is marked to stay whole on a wide screen, its own class kept; words or a plain word are not', () => {
    assert.equal(markIdentifierBreaks('<td><code>pending-cancel</code></td>'), '<td><code class="whole-identifier">pending-<wbr>cancel</code></td>');
    assert.equal(markIdentifierBreaks('<code class="astro-x">on-hold</code>'), '<code class="astro-x whole-identifier">on-<wbr>hold</code>');
    assert.equal(markIdentifierBreaks('<code>service_subscription_not_found</code>'), '<code class="whole-identifier">service_<wbr>subscription_<wbr>not_<wbr>found</code>');
    assert.equal(markIdentifierBreaks('<code>--api-key KEY</code>'), '<code>--<wbr>api-<wbr>key KEY</code>');
    assert.equal(markIdentifierBreaks('<code>/?rest_route=/a</code>'), '<code class="whole-identifier">/?<wbr>rest_<wbr>route=/<wbr>a</code>');
    const url = 'https://docs.subscription-lifecycle.example/.well-known/mcp/server-card.json';
    assert.match(markIdentifierBreaks(`<code>${url}</code>`), /^<code class="whole-identifier long-identifier">https:\/\/<wbr>docs\./);
    assert.equal(markIdentifierBreaks('<code>active</code>'), '<code>active</code>');
  });

  test('identifiers inside prose are found for a component to set as code', () => {
    assert.deepEqual(identifierParts('cancel_subscription with subscription_id null'), [
      { text: 'cancel_subscription', code: true },
      { text: ' with ', code: false },
      { text: 'subscription_id', code: true },
      { text: ' null', code: false },
    ]);
    assert.deepEqual(identifierParts('a body that is not UTF-8'), [{ text: 'a body that is not UTF-8', code: false }]);
  });

  test('a heading of words, a code block and code with markup inside are left as they are', () => {
    for (const html of ['<h2 id="code-samples">Code samples</h2>', '<pre class="x"><code>a_b</code></pre>', '<code><span>a_b</span></code>']) {
      assert.equal(markIdentifierBreaks(html), html);
    }
  });
});
