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
import { acceptedStates, refusedStates, targetStates } from '../../src/lib/contract/lifecycle.ts';
import { actionPagePath, endpointPagePath, guidePaths } from '../../src/lib/site/navigation.ts';
import { publishedUrl } from '../../src/lib/site/reference-markdown.ts';
import { endpointSections } from '../../src/lib/site/reference-pages.ts';
import { loadKnowledge } from '../../src/mcp-server/load-knowledge.ts';
import type { ProductKnowledge } from '../../src/mcp-server/knowledge.ts';
import { passageUrl } from '../../src/mcp-server/passages.ts';
import { searchPassages } from '../../src/mcp-server/search-index.ts';
import { readServerIdentity } from '../../src/mcp-server/identity.ts';
import { exceptionClassName } from '../../src/clients/php/exception-classes.ts';
import { clientPagePaths } from '../../src/lib/samples/client-libraries.ts';

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

  test('"Can I resume a pending-cancel subscription?" ranks the resume and reactivate passages, not the cancel page alone', () => {
    const { lifecycle } = knowledge.model;
    const resume = lifecycle.transitions.find((transition) => transition.action.startsWith('resume'));
    assert.ok(resume);
    // A hyphenated status the resume action refuses, from which another action leads where resume does.
    const status = refusedStates(lifecycle, resume).find((candidate) => candidate.includes('-'));
    assert.ok(status);
    const instead = lifecycle.transitions.filter(
      (transition) => transition.kind !== 'chosen' && transition !== resume && acceptedStates(transition).includes(status) && targetStates(transition).some((target) => targetStates(resume).includes(target)),
    );
    assert.ok(instead.length > 0);
    const hits = firstPage(`Can I resume a ${status} subscription?`);
    const pagesOfHits = new Set(hits.map((hit) => hit.passage.pageUrl));
    assert.ok(pagesOfHits.size > 1, `not one page alone: ${[...pagesOfHits].join(', ')}`);
    assert.ok(pagesOfHits.has(publishedUrl(actionPagePath(resume.action))), [...pagesOfHits].join(', '));
    assert.ok(
      hits.some((hit) => instead.some((transition) => hit.passage.text.includes(transition.action)) && hit.passage.text.includes(status)),
      `a passage names ${instead.map((transition) => transition.action).join(' or ')} with ${status}`,
    );
  });

  test('noun forms and everyday words find their action: expiration, reactivation, undoing a cancellation', () => {
    const pageOfAction = (prefix: string) => publishedUrl(actionPagePath(knowledge.model.actions.find((action) => action.identifier.startsWith(prefix))?.identifier ?? ''));
    assert.equal(urls('What happens on expiration?')[0]?.split('#')[0], pageOfAction('expire'));
    assert.equal(urls('reactivation')[0]?.split('#')[0], pageOfAction('reactivate'));
    assert.ok(urls('How do I undo a cancellation?').some((url) => url.startsWith(pageOfAction('reactivate'))));
  });

  test('several actions in one request, many subscriptions at once, in bulk: the endpoint says there is no batch', () => {
    for (const question of ['Can I send several actions in one request?', 'Can I cancel multiple subscriptions at once?', 'bulk cancel subscriptions']) {
      assert.ok(urls(question).includes(endpointSection(endpointSections.notInThisApi.slug)), `${question}: ${urls(question).join(', ')}`);
    }
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

  test('a question that names a guide by its title ("the PHP library") ranks that guide\'s sections before the page that owns the code it names', () => {
    const conflict = knowledge.model.responses.find((response) => response.status === '409');
    assert.ok(conflict, 'the contract has a 409');
    const [first] = firstPage(`With the PHP library, how do I handle a ${conflict.status}?`);
    assert.equal(first?.passage.pageUrl, publishedUrl(clientPagePaths.php));
    assert.ok(first.passage.text.includes(exceptionClassName(conflict.status)), first.passage.text);
    // Without the library named, the code's own page comes first, as before.
    assert.notEqual(firstPage(`How do I handle a ${conflict.status}?`)[0]?.passage.pageUrl, publishedUrl(clientPagePaths.php));
  });

  test('one word of a title does not name its page: "client" alone is not "the TypeScript client"', () => {
    const conflict = knowledge.model.responses.find((response) => response.status === '409');
    assert.ok(conflict, 'the contract has a 409');
    assert.equal(firstPage(`With the TypeScript client, what does a ${conflict.status} carry?`)[0]?.passage.pageUrl, publishedUrl(clientPagePaths.typescript));
    assert.notEqual(firstPage(`What does a ${conflict.status} tell my client?`)[0]?.passage.pageUrl, publishedUrl(clientPagePaths.typescript));
  });
});
