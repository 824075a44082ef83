/**
 * Search puts the passage that answers a common question in the first page of results (four
 * passages, what search_docs returns by default), found through the domain's words and the page
 * that owns a term, not through rules for these questions; and a near-copy of a table another
 * page owns stands for no passage. Addresses are the site's own anchors, read from the model of
 * the pages, not typed.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { endpointPagePath, guidePaths } from '../../src/lib/site/navigation.ts';
import { publishedUrl } from '../../src/lib/site/reference-markdown.ts';
import { endpointSections } from '../../src/lib/site/reference-pages.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';
import type { ProductKnowledge } from '../../src/mcp-server/knowledge.ts';
import { passageUrl } from '../../src/mcp-server/passages.ts';
import { searchPassages } from '../../src/mcp-server/search-index.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';

const projectDirectory = path.resolve(import.meta.dirname, '../..');
let knowledge: ProductKnowledge;

before(async () => {
  ensureBuiltSite(projectDirectory);
  knowledge = await loadKnowledge(projectDirectory);
});

const firstPage = (query: string) => searchPassages(knowledge.search, query).slice(0, 4);
const urls = (query: string) => firstPage(query).map((hit) => passageUrl(hit.passage));
const endpointSection = (slug: string) => `${publishedUrl(endpointPagePath)}#${slug}`;

describe('search, for questions it used to send elsewhere', () => {
  test('"How do I get the status of a subscription?" finds what the API does not have: no read operation', () => {
    assert.ok(urls('How do I get the status of a subscription?').includes(endpointSection(endpointSections.notInThisApi.slug)));
  });

  test('"Can I list all subscriptions through the API?" puts what the API does not have first', () => {
    assert.equal(urls('Can I list all subscriptions through the API?')[0], endpointSection(endpointSections.notInThisApi.slug));
  });

  test('"Is there a free version?" puts the editions of the product first, not versioning', () => {
    const [first] = urls('Is there a free version?');
    assert.ok(first?.startsWith(publishedUrl(guidePaths.product)), first);
  });

  test('"What does the 409 body contain?" finds the 409 body', () => {
    assert.ok(urls('What does the 409 body contain?').some((url) => url.startsWith(endpointSection('body-409'))));
  });

  test('"Which MCP protocol versions does the server support?" finds a passage that names every version the server supports', () => {
    const texts = firstPage('Which MCP protocol versions does the server support?').map((hit) => hit.passage.text);
    const versions = readServerIdentity(projectDirectory).supportedProtocolVersions;
    assert.ok(texts.some((text) => versions.every((version) => text.includes(version))), texts.join('\n---\n'));
  });

  test('an action page\'s table of errors is no near-copy of the errors guide\'s: it keeps only its own rows', () => {
    const allErrors = knowledge.search.passages.find((passage) => passage.pageUrl === publishedUrl(guidePaths.errors) && passage.text.includes('| Status | Code |'));
    assert.ok(allErrors, 'the errors guide has its table');
    const guideRows = new Set(allErrors.text.split('\n').slice(2));
    for (const passage of knowledge.search.passages.filter((candidate) => candidate.pageUrl !== allErrors.pageUrl && candidate.text.startsWith('| Status | Code |'))) {
      const copied = passage.text.split('\n').slice(2).filter((row) => guideRows.has(row));
      assert.deepEqual(copied, [], `${passageUrl(passage)} repeats rows of the errors guide`);
    }
  });
});
