import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { openApiJsonPath, openApiYamlPath, serverCardPath } from '../../src/lib/site/discovery.ts';
import { renderedGuideMarkdown } from '../../src/lib/site/guide-markdown.ts';
import { llmsFullPages, llmsFullSections, llmsFullTxt, llmsFullTxtPath, llmsIndex, llmsTxt, type GuideEntry } from '../../src/lib/site/llms-txt.ts';
import { actionPagePath } from '../../src/lib/site/navigation.ts';
import { referencePages } from '../../src/lib/site/reference-pages.ts';
import { siteConfig } from '../../src/site-config.ts';
import { LlmsTxtParseError, parseLlmsTxt } from '../support/llms-txt.ts';
import { projectDirectory } from '../support/contract-copy.ts';
import { bundledDocument } from '../support/reference-fixture.ts';

const model = readReferenceModel(bundledDocument());
const docsDirectory = path.join(projectDirectory, 'src/content/docs');

/** The guides as the content collection describes them, read from their front matter. */
const guides: GuideEntry[] = readdirSync(docsDirectory)
  .filter((file) => /\.mdx?$/.test(file))
  .map((file) => {
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(path.join(docsDirectory, file), 'utf8'))?.[1] ?? '';
    const data = parseYaml(frontMatter) as { title: string; description?: string };
    return { id: file.replace(/\.mdx?$/, ''), title: data.title, description: data.description ?? '' };
  });

function published(pagePath: string): string {
  return new URL(pagePath, siteConfig.docsUrl).href;
}

describe('the llms.txt parser, ported from the proposal', () => {
  test('reads a title, a summary, free text and sections of links', () => {
    const parsed = parseLlmsTxt(
      '# Shop API\n\n> One endpoint for subscriptions.\n\nRead the guides first.\n\n## Docs\n\n- [Guide](https://example.com/guide): how to start\n- [Other](https://example.com/other)\n\n## Optional\n\n- [History](https://example.com/history)\n',
    );
    assert.equal(parsed.title, 'Shop API');
    assert.equal(parsed.summary, 'One endpoint for subscriptions.');
    assert.equal(parsed.info, 'Read the guides first.');
    assert.deepEqual([...parsed.sections.keys()], ['Docs', 'Optional']);
    assert.deepEqual(parsed.sections.get('Docs'), [
      { title: 'Guide', url: 'https://example.com/guide', desc: 'how to start' },
      { title: 'Other', url: 'https://example.com/other', desc: undefined },
    ]);
  });

  test('fails on a section of plain bullets, as miniparse.py does', () => {
    assert.throws(
      () => parseLlmsTxt('# Shop API\n\n> Summary.\n\nText.\n\n## Notes\n\n- The complete documentation includes everything\n'),
      (error: unknown) => error instanceof LlmsTxtParseError && /section "Notes": "- The complete documentation/.test(error.message),
    );
  });

  test('fails without an H1 title', () => {
    assert.throws(() => parseLlmsTxt('Just text.\n\n## Docs\n\n- [Guide](https://example.com/guide)\n'), LlmsTxtParseError);
  });
});

describe('llms.txt', () => {
  const text = llmsTxt(llmsIndex(guides, model));
  const parsed = parseLlmsTxt(text);
  const links = [...parsed.sections.values()].flat();

  test('has the title, a one-line summary and free text without headings', () => {
    assert.equal(parsed.title, siteConfig.title);
    assert.ok(parsed.summary !== undefined && parsed.summary.length > 0, 'the block quote is read as the summary');
    assert.ok(parsed.info.length > 0);
    assert.doesNotMatch(parsed.info, /^#/m);
  });

  test('has only H1 and H2 headings, and unique section titles', () => {
    assert.deepEqual(
      text.split('\n').filter((line) => line.startsWith('#')).map((line) => /^#+/.exec(line)?.[0]),
      ['#', ...parsed.sections.keys()].map((_, index) => (index === 0 ? '#' : '##')),
    );
  });

  test('links every page absolutely under the docs URL, each once', () => {
    for (const link of links) assert.ok(link.url.startsWith(`${siteConfig.docsUrl}/`), `${link.url} is absolute under ${siteConfig.docsUrl}`);
    assert.equal(new Set(links.map((link) => link.url)).size, links.length);
  });

  test('lists every reference page of the model and every download', () => {
    const urls = new Set(links.map((link) => link.url));
    for (const page of referencePages(model)) assert.ok(urls.has(published(`/reference/${page.slug}/`)), `${page.slug} is listed`);
    for (const download of [openApiJsonPath, openApiYamlPath, serverCardPath, llmsFullTxtPath]) assert.ok(urls.has(published(download)), `${download} is listed`);
  });

  test('lists every guide but the 404 page', () => {
    const urls = new Set(links.map((link) => link.url));
    for (const guide of guides) {
      const url = published(guide.id === 'index' ? '/' : `/${guide.id}/`);
      assert.equal(urls.has(url), guide.id !== '404', url);
    }
  });
});

describe('llms-full.txt', () => {
  const references = [
    { title: 'The endpoint', url: published('/reference/endpoint/'), description: model.endpoint.summary, markdown: `Reference text for ${model.endpoint.urlTemplate}.` },
    ...model.actions.map((action) => ({
      title: `${action.identifier}: ${action.title}`,
      url: published(actionPagePath(action.identifier)),
      description: action.title,
      markdown: '```sh\n# a comment in a sample, not a heading\n\ncurl --fail\n```',
    })),
  ];
  const pages = llmsFullPages(
    guides.map((guide) => ({ ...guide, markdown: `Guide text with a [link](${published('/quickstart/')}).` })),
    references,
  );
  const fullText = llmsFullTxt(pages);

  test('holds every action page, the endpoint URL template and absolute links only', () => {
    for (const action of model.actions) {
      assert.match(fullText, new RegExp(`^# ${action.identifier}: `, 'm'), action.identifier);
      assert.ok(fullText.includes(published(actionPagePath(action.identifier))), `the address of ${action.identifier}`);
    }
    assert.ok(fullText.includes(model.endpoint.urlTemplate));
    assert.doesNotMatch(fullText, /\]\(\//);
  });

  test('gives no two pages the same H1', () => {
    const headings = fullText.split('\n').filter((line) => /^# /.test(line) && !line.includes('a comment'));
    assert.equal(new Set(headings).size, headings.length, headings.join('\n'));
  });

  test('is read back into exactly the pages it was written from, a comment line in a sample included', () => {
    assert.deepEqual(llmsFullSections(fullText), pages);
  });
});

describe('a rendered guide as Markdown', () => {
  const html = [
    '<div class="sl-heading-wrapper level-h2"><h2 id="start">Start</h2><a class="sl-anchor-link" href="#start"><span aria-hidden="true"><svg></svg></span><span class="sr-only">Section titled “Start”</span></a></div>',
    '<p>See <a href="/quickstart/">the quickstart</a> and <a href="#start">this part</a>.</p>',
    '<div class="expressive-code"><figure class="frame"><figcaption class="header"><span class="title">call.sh</span></figcaption><pre data-language="sh"><code><div class="ec-line"><div class="code">curl \\</div></div><div class="ec-line"><div class="code">  --fail</div></div></code></pre><button data-code="x">Copy</button></figure></div>',
    // As Expressive Code renders them: an empty line holds a line break, and a `single-text` block is one text.
    '<div class="expressive-code"><figure class="frame"><pre data-language="php"><code><div class="ec-line"><div class="code">$a = 1;</div></div><div class="ec-line"><div class="code">\n</div></div><div class="ec-line"><div class="code">$b = 2;</div></div></code></pre></figure></div>',
    '<div class="expressive-code"><figure class="frame"><pre data-language="js"><code class="single-text">const a = 1;\n\nconst b = 2;</code></pre></figure></div>',
    '<starlight-tabs><ul role="tablist"><li><a role="tab" href="#p0">One</a></li><li><a role="tab" href="#p1">Two</a></li></ul><div role="tabpanel" id="p0"><p>First panel</p></div><div role="tabpanel" id="p1" hidden><p>Second panel</p></div></starlight-tabs>',
    '<aside class="starlight-aside starlight-aside--caution"><p class="starlight-aside__title"><svg></svg>Caution</p><div class="starlight-aside__content"><p>Keep the key secret.</p></div></aside>',
    '<request-builder hidden><form><p><strong>Your values</strong>: typed here.</p></form></request-builder><p data-refused hidden>Quotes are left out.</p>',
    '<ul><li>One endpoint, POST https://{site}/wp-json/service/v1/action, on each site</li></ul>',
  ].join('');
  const markdown = renderedGuideMarkdown(html, published('/errors-and-rate-limits/'));

  test('leaves out what is hidden until a script shows it, and keeps every tab panel', () => {
    assert.doesNotMatch(markdown, /Your values|Quotes are left out/);
    assert.match(markdown, /Second panel/);
  });

  test('keeps headings without their anchor links', () => {
    assert.match(markdown, /^## Start$/m);
    assert.doesNotMatch(markdown, /Section titled/);
  });

  test('writes an address in prose as it is, without the backslash GFM puts before its colon', () => {
    assert.ok(markdown.includes('POST https://{site}/wp-json/service/v1/action, on each site'), markdown);
  });

  test('makes every link absolute', () => {
    assert.ok(markdown.includes(`[the quickstart](${published('/quickstart/')})`));
    assert.ok(markdown.includes(`[this part](${published('/errors-and-rate-limits/')}#start)`));
    assert.doesNotMatch(markdown, /\]\((\/|#)/);
  });

  test('names the page and the link when a link is no address, as Markdown makes of a bare http://… in prose', () => {
    assert.throws(() => renderedGuideMarkdown('<p>It stops with <a href="http://…">http://…</a></p>', published('/clients/php/')), new RegExp(`^Error: ${published('/clients/php/')} links to "http://…", which is not an address`));
  });

  test('turns code frames into fenced blocks, every tab panel and asides into text', () => {
    assert.ok(markdown.includes('```sh\ncurl \\\n  --fail\n```'), markdown);
    assert.ok(markdown.includes('```php\n$a = 1;\n\n$b = 2;\n```'), `an empty line is one empty line:\n${markdown}`);
    assert.ok(markdown.includes('```js\nconst a = 1;\n\nconst b = 2;\n```'), `a block of one text keeps its lines:\n${markdown}`);
    assert.match(markdown, /`call\.sh`/);
    assert.match(markdown, /\*\*One\*\*\n\nFirst panel\n\n\*\*Two\*\*\n\nSecond panel/);
    assert.match(markdown, /> \*\*Caution\*\*\n>\n> Keep the key secret\./);
    assert.doesNotMatch(markdown, /Copy/);
  });
});

describe('a table with blocks in its cells, as Markdown', () => {
  const html = [
    '<table><thead><tr><th>Field</th><th>Description</th></tr></thead><tbody>',
    '<tr><th><code>note</code> <span class="badges"><span>string</span> <span>optional</span></span></th><td><p>Why.</p><p>Kept</p><ul><li>at most 9 characters</li><li>trimmed</li></ul></td></tr>',
    '<tr><th><code>data</code></th><td><p>Details.</p><details><summary>2 members of <code>data</code></summary>',
    '<table><thead><tr><th>Member</th><th>Description</th></tr></thead><tbody>',
    '<tr><th><code>status</code><span class="badges"><span>integer</span><span>required</span></span></th><td><p>The status.</p><ul><li>always <code>409</code></li></ul></td></tr>',
    '<tr><th><code>allowed_actions</code><span class="badges"><span>array</span><span>required</span></span></th><td><p>In order.</p></td></tr>',
    '</tbody></table></details></td></tr>',
    '<tr><th><code>429</code></th><td><p>Body: none</p><dl><dt>Header <code>Retry-After</code></dt><dd>How long.</dd></dl></td></tr>',
    '</tbody></table>',
  ].join('');
  const markdown = renderedGuideMarkdown(html, published('/reference/endpoint/'));

  test('writes each row on one line, blocks kept apart, a nested table as its members', () => {
    assert.deepEqual(markdown.split('\n'), [
      '| Field | Description |',
      '| - | - |',
      '| `note` string optional | Why. Kept; at most 9 characters; trimmed |',
      '| `data` | Details. 2 members of `data`: `status` (integer, required): The status. always `409`; `allowed_actions` (array, required): In order. |',
      '| `429` | Body: none; Header `Retry-After`: How long. |',
    ]);
  });
});
