import { getContainerRenderer } from '@astrojs/mdx/container-renderer';
import type { APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { getCollection, render } from 'astro:content';
import { loadReferenceModel } from '../lib/actions.ts';
import { renderedGuideMarkdown } from '../lib/guide-markdown.ts';
import { guidePath, listedGuides, llmsFullTxt } from '../lib/llms-txt.ts';
import { publishedUrl } from '../lib/reference-markdown.ts';

/**
 * Every page of the site in one Markdown file. The guides are rendered by Astro, components and
 * all, and read back as Markdown; the reference pages come from the model's own Markdown.
 * Starlight's components read their UI strings from `locals`, which its middleware fills for
 * this route as for a page, so the route's own locals are passed on.
 */
export const GET: APIRoute = async ({ locals }) => {
  const container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
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
  return new Response(llmsFullTxt(guides, loadReferenceModel()), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
