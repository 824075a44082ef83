import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { loadGatedContract } from '../gate/gated-contract.ts';
import { llmsFullTxtPath, llmsTxtPath } from '../lib/site/llms-txt.ts';
import { readProductFacts } from '../lib/product-facts.ts';
import { loadSnapshot, readReleases } from '../lib/releases/releases.ts';
import { knowledgeFrom, type KnowledgeSource, type ProductKnowledge } from './knowledge.ts';
import { searchIndexFormat, searchIndexPath, type SearchIndexData } from './search-index.ts';
import { createRequestCheck } from './request-check.ts';

/** The built site is missing: the server's pages are the ones the build writes. */
export class SiteNotBuiltError extends Error {}

/**
 * Reads what the server is built from: the contract through the gate, its releases, the product
 * facts, and llms.txt, llms-full.txt and the search index as `npm run build` wrote them into `siteDirectory`.
 */
export async function readKnowledgeSource(projectDirectory: string, siteDirectory = path.join(projectDirectory, 'dist')): Promise<KnowledgeSource> {
  const built = (file: string) => {
    const absolute = path.join(siteDirectory, file);
    if (!existsSync(absolute)) throw new SiteNotBuiltError(`${absolute} is missing: the server answers from the pages the build writes; run \`npm run build\` first.`);
    return readFileSync(absolute, 'utf8');
  };
  const { document } = await loadGatedContract(projectDirectory, { bundleDirectory: '.generated/mcp-server' });
  return {
    document,
    releases: readReleases(projectDirectory).map((release) => ({ version: release.version, date: release.date, document: loadSnapshot(projectDirectory, release) })),
    facts: readProductFacts(projectDirectory),
    llmsTxt: built(llmsTxtPath),
    llmsFullTxt: built(llmsFullTxtPath),
    searchIndex: builtSearchIndex(built(searchIndexPath), path.join(siteDirectory, searchIndexPath)),
  };
}

/** The search index the build wrote; one that is not this version's (a build of another checkout, a cut file) is refused with what to do. */
export function builtSearchIndex(text: string, file: string): SearchIndexData {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const format = typeof data === 'object' && data !== null && 'format' in data ? data.format : undefined;
  if (format !== searchIndexFormat) throw new SiteNotBuiltError(`${file} is not a search index of format ${searchIndexFormat}: run \`npm run build\` again.`);
  return data as SearchIndexData;
}

/** Everything the Node process answers from, the request check included. */
export async function loadKnowledge(projectDirectory: string, siteDirectory?: string): Promise<ProductKnowledge> {
  const source = await readKnowledgeSource(projectDirectory, siteDirectory);
  return knowledgeFrom(source, createRequestCheck(readExecutableContract(source.document)));
}
