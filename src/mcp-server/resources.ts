import { openApiJsonPath } from '../lib/site/discovery.ts';
import { llmsTxtPath } from '../lib/site/llms-txt.ts';
import type { ProductKnowledge } from './knowledge.ts';
import { docsAddress } from './tools/tool.ts';

/** One resource the server offers, its text computed once per process. */
export interface ResourceEntry {
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  text: string;
}

/** Where a release of the contract is read: releases are not published on the site, so they get a name of their own. */
export function releaseUri(version: string): string {
  return `openapi://releases/${version}`;
}

/**
 * What an agent can read whole: the OpenAPI document as published and each release of it,
 * llms.txt, and every page exactly as llms-full.txt has it.
 */
export function resourceEntries(knowledge: ProductKnowledge): ResourceEntry[] {
  const documents = knowledge.openApi.map((release): ResourceEntry =>
    release.version === 'current'
      ? {
          name: 'openapi',
          uri: docsAddress(openApiJsonPath),
          title: 'The OpenAPI document',
          description: 'The contract of the endpoint as the site publishes it: OpenAPI 3.1, bundled in one file.',
          mimeType: 'application/json',
          text: JSON.stringify(release.document, null, 2),
        }
      : {
          name: `openapi-${release.version}`,
          uri: releaseUri(release.version),
          title: `The OpenAPI document of release ${release.version}`,
          description: `The contract as released in version ${release.version}${release.date === undefined ? '' : ` on ${release.date}`}.`,
          mimeType: 'application/json',
          text: JSON.stringify(release.document, null, 2),
        },
  );
  const pages = knowledge.pages.map(
    (page): ResourceEntry => ({
      name: `page${new URL(page.url).pathname.replace(/\/$/, '').replaceAll('/', '-') || '-home'}`,
      uri: page.url,
      title: page.title,
      description: page.description === '' ? `The page ${page.url} as Markdown.` : page.description,
      mimeType: 'text/markdown',
      text: page.markdown,
    }),
  );
  return [
    ...documents,
    { name: 'llms-txt', uri: docsAddress(llmsTxtPath), title: 'llms.txt', description: 'The index of the site for language models.', mimeType: 'text/markdown', text: knowledge.llmsTxt },
    ...pages,
  ];
}
