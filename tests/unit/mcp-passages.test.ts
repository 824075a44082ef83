/**
 * How the product-information server cuts pages into passages and parts: headings with the
 * anchors the site gives them, bounded passages that keep a table's header, text repeated across
 * pages left out, and parts that break at sections.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blocksOf, pageHeadings, partsJoined, passagesOf, passageUrl } from '../../src/mcp-server/passages.ts';
import { partStarts } from '../../src/mcp-server/tools/read-page.ts';

const docs = 'https://docs.example';
const page = (slug: string, body: string) => ({ title: slug, url: `${docs}/${slug}/`, description: '', markdown: `# ${slug}\n\n${docs}/${slug}/\n\n${body}` });

describe('headings', () => {
  test('GitHub slugs, numbered when repeated; an explicit {#anchor} wins; a shell comment in code is no heading', () => {
    const headings = pageHeadings('## What `api_key` is\n\ntext\n\n```sh\n## not a heading\n```\n\n### 400 body {#body-400}\n\n## What `api_key` is\n');
    assert.deepEqual(
      headings.map((heading) => [heading.level, heading.text, heading.anchor]),
      [
        [2, 'What api_key is', 'what-api_key-is'],
        [3, '400 body', 'body-400'],
        [2, 'What api_key is', 'what-api_key-is-1'],
      ],
    );
  });
  test('a fence ends only at a fence of its kind and length: a ```` block showing ``` stays one block, with no heading in it', () => {
    const shown = '````md\n```js\nx();\n\n## not a heading\n```\n````';
    const tilde = '~~~\n```\n\n# still code\n~~~';
    const markdown = `## Showing a fence\n\n${shown}\n\nAfter the block.\n\n${tilde}\n`;
    assert.deepEqual(
      pageHeadings(markdown).map((heading) => heading.text),
      ['Showing a fence'],
    );
    assert.deepEqual(blocksOf(markdown), ['## Showing a fence', shown, 'After the block.', tilde]);
  });
});


describe('passages', () => {
  test('each section is a passage with its heading path and anchor; the opening has none', () => {
    const passages = passagesOf([page('guide', 'Opening words.\n\n## Rate limits\n\nSlow down.\n\n### When the host says wait\n\nHonour Retry-After.')]);
    assert.deepEqual(
      passages.map((passage) => [passage.headingPath.join(' › '), passageUrl(passage), passage.text]),
      [
        ['guide', `${docs}/guide/`, 'Opening words.'],
        ['guide › Rate limits', `${docs}/guide/#rate-limits`, 'Slow down.'],
        ['guide › Rate limits › When the host says wait', `${docs}/guide/#when-the-host-says-wait`, 'Honour Retry-After.'],
      ],
    );
  });

  test('a long section is split at blank lines into passages under the bound; a longer block is cut and says so', () => {
    const paragraph = 'word '.repeat(30).trim();
    const code = `\`\`\`js\n${'x();\n'.repeat(100)}\`\`\``;
    const passages = passagesOf([page('long', `## Part\n\n${Array.from({ length: 6 }, () => paragraph).join('\n\n')}\n\n${code}`)], 400);
    assert.ok(passages.length >= 3);
    for (const passage of passages) assert.ok(passage.text.length <= 401, `${passage.text.length} characters`);
    assert.equal(passages.at(-1)?.cut, true);
    assert.ok(passages.slice(0, -1).every((passage) => passage.cut === false));
  });

  test('a long table is split into tables of whole rows, each under its header', () => {
    const rows = Array.from({ length: 40 }, (_, index) => `| row${index} | ${'cell '.repeat(5)}|`);
    const passages = passagesOf([page('table', `## Errors\n\n| Status | When |\n| - | - |\n${rows.join('\n')}`)], 400);
    assert.ok(passages.length > 1);
    for (const passage of passages) assert.match(passage.text, /^\| Status \| When \|\n\| - \| - \|\n\| row\d+/);
    assert.equal(passages.map((passage) => passage.text.match(/\| row\d+/g)?.length ?? 0).reduce((a, b) => a + b, 0), rows.length);
  });

  test('a table after a short caption is split with the room the caption leaves: every passage holds whole rows, none is cut', () => {
    const rows = Array.from({ length: 40 }, (_, index) => `| row${index} | ${'cell '.repeat(5)}|`);
    const caption = 'For each action, the statuses it accepts:';
    const passages = passagesOf([page('table', `## Which action applies where\n\n${caption}\n\n| Action | Accepted |\n| - | - |\n${rows.join('\n')}`)], 400);
    assert.ok(passages.length > 1);
    assert.ok(passages[0]?.text.startsWith(`${caption}\n\n| Action | Accepted |`), 'the caption stays with the first rows');
    for (const passage of passages) {
      assert.equal(passage.cut, false);
      assert.ok(passage.text.length <= 400, `${passage.text.length} characters`);
      assert.match(passage.text.split('\n').at(-1) ?? '', /^\| row\d+ \| (cell ){5}\|$/, 'ends with a whole row');
    }
    assert.equal(passages.map((passage) => passage.text.match(/\| row\d+/g)?.length ?? 0).reduce((a, b) => a + b, 0), rows.length);
  });

  test('a label and the code it names are one block for the repeated-block filter: an error body never stands without its label', () => {
    const label = "**400** A field this shop's release does not know";
    const body = (slug: string) => `\`\`\`\n{ "code": "rest_invalid_param", "action": "${slug}" }\n\`\`\``;
    const pages = ['a', 'b', 'c'].map((slug) => page(slug, `## Error bodies\n\n${label}\n\n${body(slug)}`));
    for (const passage of passagesOf(pages).filter((candidate) => candidate.anchor === 'error-bodies')) {
      assert.ok(passage.text.startsWith(label), passage.text);
    }
    const same = ['a', 'b', 'c'].map((slug) => page(slug, `## Error bodies\n\n${label}\n\n${body('all')}\n\nOwn words of ${slug}.`));
    for (const passage of passagesOf(same).filter((candidate) => candidate.anchor === 'error-bodies')) {
      assert.ok(!passage.text.includes('rest_invalid_param') && !passage.text.includes(label), 'label and body repeated alike go together');
    }
  });

  test('a block found on three pages or more is neither indexed nor shown; one on two pages stays', () => {
    const banner = 'This page documents version 1.';
    const pair = 'Said on two pages.';
    const pages = ['a', 'b', 'c'].map((slug, index) => page(slug, `${banner}\n\n${index < 2 ? pair : 'Own words.'}\n\n## Only ${slug}\n\nText of ${slug}.`));
    const texts = passagesOf(pages).map((passage) => passage.text);
    assert.ok(!texts.some((text) => text.includes(banner)));
    assert.equal(texts.filter((text) => text.includes(pair)).length, 2);
  });

  test('a table row found on three pages or more stays on the page that owns it only; a table left without rows is no passage', () => {
    const header = '| Status | Code | When |\n| - | - | - |';
    const shared = ['| `400` | `bad_body` | The body is wrong. |', '| `401` | `bad_key` | The key is wrong. |'];
    const guide = page('errors', `## All errors\n\n${header}\n${shared.join('\n')}`);
    const action = (slug: string) => page(slug, `## Errors\n\n${header}\n${shared.join('\n')}${slug === 'b' ? '\n| `409` | `refused` | For this action: never. |' : ''}`);
    const owner = (row: string) => (/`40[01]`/.test(row.split('|')[1] ?? '') ? guide.url : undefined);
    const passages = passagesOf([guide, action('a'), action('b')], 1600, owner);
    const of = (slug: string) => passages.filter((passage) => passage.pageUrl === `${docs}/${slug}/`).map((passage) => passage.text);
    assert.deepEqual(of('errors'), [`${header}\n${shared.join('\n')}`], 'the owner keeps every row');
    assert.deepEqual(of('b'), [`${header}\n| \`409\` | \`refused\` | For this action: never. |`], 'a near-copy keeps its own row under the header');
    assert.deepEqual(of('a'), [], 'a whole copy is no passage');
    assert.equal(passagesOf([guide, action('a'), action('b')]).filter((passage) => passage.text.includes('`bad_key`')).length, 3, 'without owners nothing is dropped');
  });
});

describe('parts of a page', () => {
  test('a page breaks at a heading when a section fits, and the parts together are the page', () => {
    const section = (name: string) => `## ${name}\n\n${'A sentence of the section. '.repeat(12).trim()}`;
    const markdown = `# Title\n\n${['One', 'Two', 'Three', 'Four'].map(section).join('\n\n')}`;
    const starts = partStarts(markdown, 700);
    assert.ok(starts.length > 1);
    for (const start of starts.slice(1)) assert.match(markdown.slice(start), /^## /, 'each part after the first starts at a heading');
    const parts = starts.map((start, index) => markdown.slice(start, starts[index + 1] ?? markdown.length));
    assert.equal(parts.join(''), markdown);
  });

  test('a section longer than the limit breaks at blank lines, never inside code', () => {
    const markdown = `## Long\n\n${'Words here. '.repeat(40)}\n\n\`\`\`\n${'line\n\n'.repeat(60)}\`\`\`\n\nAfter.`;
    const starts = partStarts(markdown, 300);
    assert.ok(starts.length > 1);
    for (const start of starts.slice(1)) {
      const before = markdown.slice(0, start);
      assert.equal((before.match(/^```/gm) ?? []).length % 2, 0, 'no part starts inside a fence');
    }
  });
});

describe('a search answer', () => {
  const long = page('long', `## Long\n\n${['one', 'two', 'three', 'four'].map((word) => `${word} ${'x'.repeat(250)}`).join('\n\n')}\n\n## Short\n\nshort`);
  const passages = passagesOf([long], 300);
  const parts = passages.filter((passage) => passage.anchor === 'long');
  const short = passages.find((passage) => passage.anchor === 'short');

  test('gives the parts of one section that follow each other as one run in the section\'s order, where the best ranked stood', () => {
    const [first, second, third, fourth] = parts;
    assert.ok(first !== undefined && second !== undefined && third !== undefined && fourth !== undefined && short !== undefined, 'four parts and a short section');
    assert.deepEqual(partsJoined([short, second, first]).map((run) => run.map((passage) => passage.id)), [[short.id], [first.id, second.id]]);
    // A part between two runs of its section joins them, where the first of them stood.
    assert.deepEqual(partsJoined([fourth, first, short, second, third]).map((run) => run.map((passage) => passage.id)), [[first.id, second.id, third.id, fourth.id], [short.id]]);
  });

  test('keeps apart the parts of a section with a part between them that is not shown, and the same anchor on another page', () => {
    const [first, , third] = parts;
    assert.ok(first !== undefined && third !== undefined);
    assert.deepEqual(partsJoined([first, third]).map((run) => run.length), [1, 1]);
    const other = { ...third, id: first.id + 1, pageUrl: `${docs}/other/` };
    assert.deepEqual(partsJoined([first, other]).map((run) => run.length), [1, 1]);
  });
});
