import { readReferenceModel } from '../lib/contract/actions.ts';
import type { ReferenceModel } from '../lib/contract/model.ts';
import type { OpenApiDocument } from '../lib/contract/document.ts';
import { llmsFullSections, type LlmsFullPage } from '../lib/site/llms-txt.ts';
import type { ProductFacts } from '../lib/product-facts.ts';
import { loadSearchIndex, type SearchIndex, type SearchIndexData } from './search-index.ts';

/** One OpenAPI document the server offers as a resource: the current contract or a release. */
export interface OpenApiRelease {
  /** `current`, or the release's version (`1.0.0`). */
  version: string;
  date?: string;
  document: OpenApiDocument;
}

/**
 * What the server is built from, as plain data: the bundled contract and its releases, the product
 * facts, and the two files the site builds for language models. The Node process reads it from
 * the project and `dist/`; the Workers build bundles it as JSON, so both serve the same. The
 * search index is in it as the site's build wrote it: neither builds it when it starts.
 */
export interface KnowledgeSource {
  document: OpenApiDocument;
  releases: OpenApiRelease[];
  facts: ProductFacts;
  llmsTxt: string;
  llmsFullTxt: string;
  /** The search index the site's build wrote from the same llms-full.txt (`searchIndexPath`). */
  searchIndex: SearchIndexData;
}

/**
 * What a request check answers: the status and body a shop would send for this body, with the
 * subscription in `currentStatus`. Computed by the sandbox's own stages on its memory store, in
 * the Node process and on workerd alike.
 */
export interface CheckedRequest {
  status: number;
  body: unknown;
}
export type RequestCheck = (body: unknown, currentStatus: string, keyAccepted: boolean) => CheckedRequest;

/** What every tool answers from. */
export interface ProductKnowledge {
  model: ReferenceModel;
  facts: ProductFacts;
  /** Every page exactly as llms-full.txt has it. */
  pages: LlmsFullPage[];
  llmsTxt: string;
  openApi: OpenApiRelease[];
  search: SearchIndex;
  checkRequest?: RequestCheck;
}

export function knowledgeFrom(source: KnowledgeSource, checkRequest?: RequestCheck): ProductKnowledge {
  const model = readReferenceModel(source.document);
  const pages = llmsFullSections(source.llmsFullTxt);
  if (pages.length === 0) throw new Error('llms-full.txt holds no page');
  return {
    model,
    facts: source.facts,
    pages,
    llmsTxt: source.llmsTxt,
    openApi: [{ version: 'current', document: source.document }, ...source.releases],
    search: loadSearchIndex(source.searchIndex),
    ...(checkRequest === undefined ? {} : { checkRequest }),
  };
}
