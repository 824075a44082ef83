import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { wordpressRestPrefix } from '../lib/contract/endpoint.ts';
import type { RestRequest } from './rest-request.ts';

/**
 * The first stage: which of the routes WordPress serves the request asks for. Core matches a
 * route case-insensitively on the whole path (`preg_match( '@^' . $route . '$@i' )`) once the
 * trailing slashes are gone, and registers an index for the site and one for each namespace.
 */
export type MatchedRoute =
  /** The endpoint's route, `/service/v1/action`. */
  | { kind: 'endpoint'; route: string }
  /** The namespace index, `/service/v1`, answered to GET. */
  | { kind: 'namespace'; route: string }
  /** The site's REST index, `/`, answered to GET. */
  | { kind: 'index'; route: string };

interface RegisteredRoutes {
  endpoint: string;
  namespace: string;
}

// Read once per contract: every request is matched against the same routes.
const routesByContract = new WeakMap<ExecutableContract, RegisteredRoutes>();

function registeredRoutes(contract: ExecutableContract): RegisteredRoutes {
  let routes = routesByContract.get(contract);
  if (routes === undefined) {
    const { urlPath, versionNamespace } = contract.model.endpoint;
    routes = {
      endpoint: urlPath.slice(wordpressRestPrefix.length),
      namespace: versionNamespace.slice(wordpressRestPrefix.length).replace(/^\/|\/$/g, ''),
    };
    routesByContract.set(contract, routes);
  }
  return routes;
}

/** The endpoint's route as WordPress registers it: its URL path without the REST prefix. */
export function endpointRoute(contract: ExecutableContract): string {
  return registeredRoutes(contract).endpoint;
}

/** The endpoint's namespace, `service/v1`, as `register_rest_route` receives it. */
export function endpointNamespace(contract: ExecutableContract): string {
  return registeredRoutes(contract).namespace;
}

export function matchRoute(contract: ExecutableContract, request: RestRequest): MatchedRoute | undefined {
  const asked = request.route.toLowerCase();
  const route = endpointRoute(contract);
  if (asked === route.toLowerCase()) return { kind: 'endpoint', route };
  const namespace = `/${endpointNamespace(contract)}`;
  if (asked === namespace.toLowerCase()) return { kind: 'namespace', route: namespace };
  if (asked === '/') return { kind: 'index', route: '/' };
  return undefined;
}

/** The methods each kind of route answers; any other gets core's `rest_no_route`. */
export function methodsOf(contract: ExecutableContract, matched: MatchedRoute): string[] {
  return matched.kind === 'endpoint' ? [contract.model.endpoint.method] : ['GET'];
}
