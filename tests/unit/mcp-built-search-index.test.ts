/**
 * The search index the site's build writes is read as it is; a file that is not this version's
 * index (cut short, or of another format) stops the server with a line saying to build again,
 * never a parser's stack trace.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtSearchIndex, SiteNotBuiltError } from '../../src/mcp-server/load-knowledge.ts';
import { searchIndexFormat } from '../../src/mcp-server/search-index.ts';

const file = 'dist/mcp/search-index.json';

test('an index of this format is read as the build wrote it', () => {
  const data = { format: searchIndexFormat, passages: [], engine: {}, canonicalPages: [], titleWords: [] };
  assert.deepEqual(builtSearchIndex(JSON.stringify(data), file), data);
});

test('a cut file, an older format or no object at all is refused with what to do', () => {
  for (const text of ['{"format":', JSON.stringify({ format: 'subscription-lifecycle-search/0' }), '[]', 'null']) {
    assert.throws(
      () => builtSearchIndex(text, file),
      (error: unknown) => error instanceof SiteNotBuiltError && error.message.includes(file) && error.message.includes('npm run build'),
      text,
    );
  }
});
