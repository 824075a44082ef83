import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { buildChangelog, changelogSections } from './lib/changelog.ts';
import { loadBundledDocument } from './lib/document.ts';

/** The changelog's sections are generated, so its table of contents is filled in here. */
export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  if (route.id !== 'changelog' || route.toc === undefined) return;
  const changelog = buildChangelog({ current: loadBundledDocument() });
  route.toc.items.push(
    ...changelogSections(changelog).map(({ slug, text }) => ({ depth: 2, slug, text, children: [] })),
  );
});
