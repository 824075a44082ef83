import { getContainerRenderer } from '@astrojs/mdx/container-renderer';
import type { APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { getCollection, render } from 'astro:content';
import ActionPage from '../components/reference/ActionPage.astro';
import EndpointPage from '../components/reference/EndpointPage.astro';
import { loadReferenceModel } from '../lib/contract/actions.ts';
import { renderedGuideMarkdown } from '../lib/site/guide-markdown.ts';
import { guidePath, listedGuides, llmsFullPages, llmsFullTxt } from '../lib/site/llms-txt.ts';
import { actionPagePath, endpointPagePath } from '../lib/site/navigation.ts';
import { publishedUrl } from '../lib/site/reference-markdown.ts';
import { actionReferencePages, endpointReferencePage } from '../lib/site/reference-pages.ts';

/**
 * Every page of the site in one Markdown file, rendered by Astro with the components the pages
 * themselves use (the guides' MDX, the reference pages' components) and read back as Markdown,
 * so a table, a number, a code sample or the "not in this API" list is in the text as on the
 * page. The product-information server reads its pages from this file. Starlight's components
 * read their UI strings from `locals`, which its middleware fills for this route as for a page,
 * so the route's own locals are passed on.
 */
export const GET: APIRoute = async ({ locals }) => {
  const container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  const model = loadReferenceModel();
  const entries = await getCollection('docs', (entry) => entry.data.draft !== true);
  const listed = new Set(listedGuides(entries.map((entry) => ({ id: entry.id, title: entry.data.title, description: '' }))).map((guide) => guide.id));
  const guides = await Promise.all(
    entries
      .filter((entry) => listed.has(entry.id))
      .map(async (entry) => {
        const { Content } = await render(entry);
        const html = await container.renderToString(Content, { locals });
        return {
          id: entry.id,
          title: entry.data.title,
          description: entry.data.description ?? '',
          markdown: renderedGuideMarkdown(html, publishedUrl(guidePath(entry.id))),
        };
      }),
  );
  const endpoint = endpointReferencePage(model);
  const endpointUrl = publishedUrl(endpointPagePath);
  const references = [
    {
      title: endpoint.title,
      url: endpointUrl,
      description: endpoint.description,
      markdown: renderedGuideMarkdown(await container.renderToString(EndpointPage, { props: { page: endpoint }, locals }), endpointUrl),
    },
    ...(await Promise.all(
      actionReferencePages(model).map(async (page) => {
        const url = publishedUrl(actionPagePath(page.action.identifier));
        return {
          title: `${page.title}: ${page.description}`,
          url,
          description: page.description,
          markdown: renderedGuideMarkdown(await container.renderToString(ActionPage, { props: { page }, locals }), url),
        };
      }),
    )),
  ];
  return new Response(llmsFullTxt(llmsFullPages(guides, references)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
