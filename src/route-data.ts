import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { changelogSections, loadChangelog } from './lib/changelog.ts';

/** The changelog's sections are generated, so its table of contents is filled in here. */
export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  if (route.id !== 'changelog' || route.toc === undefined) return;
  const changelog = loadChangelog();
  route.toc.items.push(
    ...changelogSections(changelog).map(({ slug, text }) => ({ depth: 2, slug, text, children: [] })),
  );
});
