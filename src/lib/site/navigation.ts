import type { OpenApiDocument } from '../contract/document.ts';
import { readReferenceModel } from '../contract/actions.ts';

export interface SidebarLink {
  label: string;
  link: string;
  badge?: { text: string; variant: 'note' | 'danger' | 'success' | 'caution' | 'tip' | 'default' };
}

export const endpointPagePath = '/reference/endpoint/';

/** The index of the reference: the endpoint and every action. `/reference/actions/` leads to it. */
export const referenceIndexPath = '/reference/';
export const actionsIndexPath = '/reference/actions/';

export function actionPagePath(identifier: string): string {
  return `/reference/actions/${identifier}/`;
}

/** Where the bundled contract is published, as JSON and as YAML, and its lifecycle as Arazzo workflows beside it. */
export const downloadPaths = { json: '/openapi/v1.json', yaml: '/openapi/v1.yaml', arazzo: '/openapi/v1.arazzo.yaml' } as const;

/** The badge every page and the sidebar put beside a deprecated action or field. */
export const deprecatedBadge = { text: 'Deprecated', variant: 'caution' } as const;

/**
 * The reference part of the sidebar: the endpoint page, then one page per action, in the order
 * of the request body's `oneOf`, each labelled by its identifier.
 */
export function referenceSidebarItems(document: OpenApiDocument): SidebarLink[] {
  const { actions } = readReferenceModel(document);
  return [
    { label: 'Overview', link: referenceIndexPath },
    { label: 'The endpoint', link: endpointPagePath },
    ...actions.map(
      (action): SidebarLink => ({
        label: action.identifier,
        link: actionPagePath(action.identifier),
        ...(action.deprecated ? { badge: { ...deprecatedBadge } } : {}),
      }),
    ),
  ];
}

/**
 * Every path the reference generates outside the content collection: the endpoint page, one
 * page per action and the two downloads. The links validator only knows content pages, so it
 * needs these to accept links from the guides, while a link to an action that does not exist
 * still fails.
 */
export function generatedPaths(document: OpenApiDocument): string[] {
  const { actions } = readReferenceModel(document);
  return [
    referenceIndexPath,
    actionsIndexPath,
    endpointPagePath,
    ...actions.map((action) => actionPagePath(action.identifier)),
    downloadPaths.json,
    downloadPaths.yaml,
    downloadPaths.arazzo,
  ];
}

/**
 * The hand-written guides other parts of the site point readers to by topic: the product-information
 * server's search puts them first for their topic, and its answers link them.
 */
export const guidePaths = {
  quickstart: '/quickstart/',
  authentication: '/authentication/',
  errors: '/errors-and-rate-limits/',
  states: '/states-and-transitions/',
  sandbox: '/sandbox/',
  conformance: '/conformance/',
  workflows: '/workflows/',
  product: '/product/',
  productInformationServer: '/product-information-server/',
} as const;

/**
 * Most action pages the sidebar links on one page. A sidebar that linked every action on every
 * page would make each page grow with the number of actions, and the site with its square: with
 * more actions than this, a page's sidebar lists the actions around its own (or the first ones,
 * on a page that is not an action's) and a link to the reference's index, which lists them all.
 * The previous and next links at the foot of a page still walk through every action.
 */
export const sidebarActionLimit = 9;

/**
 * Which of `count` actions a page's sidebar lists: `limit` of them, centred on the page's own
 * action (`current`, undefined elsewhere), as `[start, end)`.
 */
export function sidebarActionRange(count: number, current: number | undefined, limit = sidebarActionLimit): [number, number] {
  if (count <= limit) return [0, count];
  const start = current === undefined ? 0 : Math.min(Math.max(current - Math.floor(limit / 2), 0), count - limit);
  return [start, start + limit];
}
