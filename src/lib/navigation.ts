import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';

export interface SidebarLink {
  label: string;
  link: string;
  badge?: { text: string; variant: 'note' | 'danger' | 'success' | 'caution' | 'tip' | 'default' };
}

export const endpointPagePath = '/reference/endpoint/';

export function actionPagePath(identifier: string): string {
  return `/reference/actions/${identifier}/`;
}

/**
 * The reference part of the sidebar: the endpoint page, then one page per action, in the order
 * of the request body's `oneOf`. (Placeholder until the reference model lands.)
 */
export function referenceSidebarItems(document: OpenApiDocument): SidebarLink[] {
  const actionRequest: unknown = document.components?.requestBodies?.ActionRequest;
  const mapping =
    isRecord(actionRequest) && isRecord(actionRequest.content)
      ? (actionRequest.content['application/json'] as { schema?: { discriminator?: { mapping?: Record<string, string> } } })
          ?.schema?.discriminator?.mapping ?? {}
      : {};
  return [
    { label: 'The endpoint', link: endpointPagePath },
    ...Object.keys(mapping).map((identifier) => ({ label: identifier, link: actionPagePath(identifier) })),
  ];
}
