import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import { pointerFrom } from './json-pointer.ts';
import { child, follow, isOperation, isPathItem, narrowed, type Located } from './located.ts';
import { childPointer, contractError, requiredString } from './schemas.ts';
import { httpMethods } from '../http/methods.ts';
import type { Endpoint } from './model.ts';

/**
 * The endpoint's path item and its POST operation as written, never refused: `/action` when it is
 * there, otherwise the first path, so the gate's rules still see the operation when the path is
 * wrong. `readEndpoint` is the strict reading.
 */
export function locateEndpoint(document: OpenApiDocument): {
  pathItem: Located<OpenAPIV3_1.PathItemObject> | undefined;
  operation: Located<OpenAPIV3_1.OperationObject> | undefined;
} {
  const keys = Object.keys(document.paths ?? {});
  const key = keys.includes('/action') ? '/action' : keys[0];
  const pathItem = key === undefined ? undefined : narrowed(follow(document, document.paths?.[key], pointerFrom(['paths', key])), isPathItem);
  return { pathItem, operation: pathItem === undefined ? undefined : narrowed(child(pathItem, 'post'), isOperation) };
}

/**
 * Reads the endpoint from `servers` and `paths`. The interface specification gives the service
 * exactly one endpoint, so a second operation is a contract the pages cannot describe yet.
 */
export function readEndpoint(document: OpenApiDocument): Endpoint {
  const operations: { path: string; method: (typeof httpMethods)[number]; operation: OpenAPIV3_1.OperationObject }[] =
    [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isRecord(item)) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (operation !== undefined) operations.push({ path, method, operation });
    }
  }
  const only = operations[0];
  if (only === undefined || operations.length > 1) {
    const found = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).join(', ') || 'none';
    throw contractError('#/paths', `the service has exactly one endpoint, but the contract describes: ${found}`);
  }
  const pointer = childPointer('#/paths', only.path, only.method);

  const server = only.operation.servers?.[0] ?? document.servers?.[0];
  if (server === undefined) throw contractError('#/servers', 'no server URL is given for the endpoint');
  const serverUrl = requiredString(server.url, '#/servers/0', '`url`').replace(/\/$/, '');

  const variables = [...serverUrl.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => {
    const variable = server.variables?.[name];
    const variablePointer = childPointer('#/servers/0/variables', name);
    if (variable === undefined) throw contractError(variablePointer, `the URL uses {${name}} but does not define it`);
    return {
      name,
      defaultValue: requiredString(variable.default, variablePointer, '`default`'),
      description: variable.description ?? '',
    };
  });

  const defaults = new Map(variables.map((variable) => [variable.name, variable.defaultValue]));
  const withDefaults = (url: string): string => fillUrl(url, (name) => defaults.get(name) ?? `{${name}}`);
  // The version is part of the server URL, so every path of the API moves with it to `v2`.
  const serverSegments = pathOf(withDefaults(serverUrl)).split('/').filter(Boolean);
  const versionIndex = serverSegments.findIndex((segment) => /^v\d+$/.test(segment));
  if (versionIndex < 0) throw contractError('#/servers/0', 'the URL has no version segment such as `v1` in its path');

  const urlTemplate = `${serverUrl}${only.path}`;
  const exampleUrl = withDefaults(urlTemplate);
  return {
    method: only.method.toUpperCase(),
    path: only.path,
    urlTemplate,
    exampleUrl,
    urlPath: pathOf(exampleUrl),
    versionSegment: serverSegments[versionIndex] ?? '',
    versionNamespace: `/${serverSegments.slice(0, versionIndex + 1).join('/')}/`,
    variables,
    serverDescription: server.description ?? '',
    summary: only.operation.summary ?? '',
    description: only.operation.description ?? '',
    operation: only.operation,
    pointer,
  };
}

/** The path of a URL; a relative server URL is read as relative to the host serving the document. */
function pathOf(url: string): string {
  return new URL(url, 'https://document-host.invalid/').pathname;
}

/** Replaces every `{name}` of a URL template by what `valueOf` gives for the name. */
export function fillUrl(template: string, valueOf: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => valueOf(name));
}

/** WordPress's prefix for REST routes in a URL's path, as WordPress sets it by default. */
export const wordpressRestPrefix = '/wp-json';

/** The query parameter WordPress reads the route from on a site without pretty permalinks. */
export const wordpressRouteParameter = 'rest_route';

/**
 * The same route on a site without pretty permalinks, where WordPress has no `/wp-json/` path
 * and takes the route from the `rest_route` query parameter instead: `https://{site}/?rest_route=/…`.
 * Undefined when the URL does not use WordPress's REST prefix.
 */
export function plainPermalinkUrl(urlTemplate: string): string | undefined {
  const start = urlTemplate.indexOf(`${wordpressRestPrefix}/`);
  if (start < 0) return undefined;
  return `${urlTemplate.slice(0, start)}/?${wordpressRouteParameter}=${urlTemplate.slice(start + wordpressRestPrefix.length)}`;
}
