import type { OpenApiDocument } from './document.ts';
import { readReferenceModel } from './actions.ts';

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

/** Where the bundled contract is published, as JSON and as YAML. */
export const downloadPaths = { json: '/openapi/v1.json', yaml: '/openapi/v1.yaml' } as const;

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
  product: '/product/',
  productInformationServer: '/product-information-server/',
} as const;
