import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { changelogSections, loadChangelog } from './lib/releases/changelog.ts';
import { actionsIndexPath, referenceIndexPath, sidebarActionRange } from './lib/site/navigation.ts';
import { referenceIndexSections } from './lib/site/reference-pages.ts';

type StarlightRoute = App.Locals['starlightRoute'];
type SidebarEntry = StarlightRoute['sidebar'][number];

/** Every action's page lies under the actions' path (which itself redirects to the reference's index). */
const actionPathPrefix = actionsIndexPath;

/** The changelog's sections are generated, so its table of contents is filled in here. */
function fillChangelogContents(route: StarlightRoute): void {
  if (route.id !== 'changelog' || route.toc === undefined) return;
  route.toc.items.push(...changelogSections(loadChangelog()).map(({ slug, text }) => ({ depth: 2, slug, text, children: [] })));
}

/**
 * The reference's group lists the actions around the page's own, and a link to all of them, once
 * there are more than `sidebarActionLimit` (src/lib/site/navigation.ts says why).
 */
function limitSidebarActions(sidebar: SidebarEntry[]): void {
  for (const group of sidebar) {
    if (group.type !== 'group') continue;
    const isAction = (entry: SidebarEntry): boolean => entry.type === 'link' && entry.href.startsWith(actionPathPrefix);
    const actions = group.entries.filter(isAction);
    const first = group.entries.findIndex(isAction);
    if (first === -1) continue;
    const current = actions.findIndex((entry) => entry.type === 'link' && entry.isCurrent);
    const [start, end] = sidebarActionRange(actions.length, current === -1 ? undefined : current);
    if (end - start === actions.length) continue;
    const others = group.entries.filter((entry) => !isAction(entry));
    group.entries = [
      ...others.slice(0, first),
      ...actions.slice(start, end),
      {
        type: 'link',
        label: `All ${actions.length} actions`,
        href: `${referenceIndexPath}#${referenceIndexSections.actions.slug}`,
        isCurrent: false,
        badge: undefined,
        attrs: {},
      },
      ...others.slice(first),
    ];
  }
}

/**
 * The not-found page is served for every missing address, and `/404/` itself answers 404, so a
 * canonical link (Starlight writes one from the address) would point crawlers at an error.
 */
function dropCanonicalOfNotFound(route: StarlightRoute): void {
  if (route.id !== '404') return;
  route.head = route.head.filter((entry) => !(entry.tag === 'link' && entry.attrs?.rel === 'canonical'));
}

export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  dropCanonicalOfNotFound(route);
  fillChangelogContents(route);
  limitSidebarActions(route.sidebar);
});
