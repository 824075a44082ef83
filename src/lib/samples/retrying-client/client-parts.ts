import type { Endpoint } from '../../contract/model.ts';
import { wordpressRestPrefix, wordpressRouteParameter } from '../../contract/endpoint.ts';
import { fillInComment, placeholdersIn } from '../sample-parts.ts';
import type { SampleStatuses } from '../sample-statuses.ts';
import type { RetryPolicy } from '../retry-policy.ts';

/** What every retrying client are written from. */
export interface ClientParts {
  endpoint: Endpoint;
  statuses: SampleStatuses;
  policy: RetryPolicy;
  /** The request example the usage at the end sends. */
  example: Record<string, unknown>;
}

/**
 * A client takes the site's whole base URL, scheme included (`https://shop.example`, or
 * the `http://` address a local sandbox prints), and adds the endpoint's path to it. A site
 * without pretty permalinks has no `/wp-json/` path: its base URL ends in `?rest_route=`
 * (`https://shop.example/?rest_route=`), and the client adds the route, the path after `/wp-json`.
 */
export function baseUrlParts(endpoint: Endpoint): { example: string; path: string; plain: { example: string; ending: RegExp; route: string } } {
  const base = endpoint.urlTemplate.slice(0, endpoint.urlTemplate.length - endpoint.urlPath.length);
  if (!endpoint.urlTemplate.endsWith(endpoint.urlPath) || !endpoint.exampleUrl.endsWith(endpoint.urlPath) || endpoint.variables.some((variable) => !base.includes(`{${variable.name}}`))) {
    throw new Error(`The retrying clients take a base URL, but a variable of ${endpoint.urlTemplate} is in its path`);
  }
  if (!endpoint.urlPath.startsWith(`${wordpressRestPrefix}/`)) throw new Error(`The retrying clients take a WordPress site's base URL, but ${endpoint.urlPath} is not under ${wordpressRestPrefix}/`);
  const example = endpoint.exampleUrl.slice(0, endpoint.exampleUrl.length - endpoint.urlPath.length);
  return {
    example,
    path: endpoint.urlPath,
    plain: { example: `${example}/?${wordpressRouteParameter}=`, ending: new RegExp(`[?&]${wordpressRouteParameter}=$`), route: endpoint.urlPath.slice(wordpressRestPrefix.length) },
  };
}

export function fillIn(marker: string, { endpoint, example }: ClientParts): string {
  return fillInComment(marker, [
    `the site's base URL ${baseUrlParts(endpoint).example}`,
    ...placeholdersIn(example).map((placeholder) => `${placeholder} in the body`),
  ]);
}
