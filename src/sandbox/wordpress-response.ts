import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Answer } from './answer.ts';
import { hostAnswer, jsonAnswer } from './answer.ts';
import type { RestRequest } from './rest-request.ts';
import { firstHeader } from './rest-request.ts';
import type { MatchedRoute } from './route.ts';
import { endpointNamespace, endpointRoute, methodsOf } from './route.ts';
import type { RouteArgument } from '../lib/contract/route-arguments.ts';

/**
 * What WordPress core adds around any plugin's answer: the headers `WP_REST_Server::serve_request`
 * sends on every REST answer, the CORS headers of `rest_send_cors_headers`, the `Allow` header of
 * `rest_send_allow_header`, the `?_envelope` wrapping, and the answers core gives by itself (the
 * indexes, `OPTIONS`, the front end).
 */

const exposedHeaders = 'X-WP-Total, X-WP-TotalPages, Link';
const allowedRequestHeaders = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
const corsMethods = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';

/** The headers of every REST answer, whatever the route and the status. */
export function restHeaders(request: RestRequest, originalMethod: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-robots-tag': 'noindex',
    link: `<${request.restRoot}>; rel="https://api.w.org/"`,
    'x-content-type-options': 'nosniff',
    'access-control-expose-headers': exposedHeaders,
    'access-control-allow-headers': allowedRequestHeaders,
  };
  const origin = firstHeader(request.headers, 'origin');
  if (origin !== undefined && origin !== '') {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-methods'] = corsMethods;
    headers['access-control-allow-credentials'] = 'true';
    headers.vary = 'Origin';
  } else if (originalMethod === 'GET') {
    headers.vary = 'Origin';
  }
  return headers;
}

/** `?_envelope`: the answer's status, headers and body, inside a 200. */
export function envelope(answer: Answer, responseHeaders: Record<string, string>): Answer {
  const body = answer.body === '' ? null : (JSON.parse(answer.body) as unknown);
  const headers = Object.fromEntries(Object.entries(responseHeaders).map(([name, value]) => [name.replace(/(^|-)[a-z]/g, (letter) => letter.toUpperCase()), value]));
  // PHP's json_encode writes an empty array as a list.
  return jsonAnswer(200, { body, status: answer.status, headers: Object.keys(headers).length === 0 ? [] : headers });
}

function endpointData(contract: ExecutableContract, routeArguments: readonly RouteArgument[], help: boolean, restRoot: string) {
  const methods = [contract.model.endpoint.method];
  const args = Object.fromEntries(routeArguments.map((argument) => [argument.name, { ...argument.schema, required: argument.required }]));
  return {
    namespace: endpointNamespace(contract),
    methods,
    endpoints: [{ methods, args }],
    ...(help ? {} : { _links: { self: [{ href: `${restRoot}${endpointRoute(contract).slice(1)}` }] } }),
  };
}

function namespaceData(contract: ExecutableContract) {
  const namespace = endpointNamespace(contract);
  return { namespace, methods: ['GET'], endpoints: [{ methods: ['GET'], args: { namespace: { default: namespace, required: false }, context: { default: 'view', required: false } } }] };
}

/** Core's own answer for the indexes and for `OPTIONS` on a route; undefined for the plugin's requests. */
export function coreAnswer(contract: ExecutableContract, routeArguments: readonly RouteArgument[], request: RestRequest, matched: MatchedRoute): Answer | undefined {
  const { restRoot } = request;
  if (request.method === 'OPTIONS') {
    const data = matched.kind === 'endpoint' ? endpointData(contract, routeArguments, true, restRoot) : namespaceData(contract);
    return jsonAnswer(200, data);
  }
  // The endpoint's own method is the plugin's to answer; core answers only the indexes.
  if (matched.kind === 'endpoint' || !methodsOf(contract, matched).includes(request.method)) return undefined;
  const namespace = endpointNamespace(contract);
  const routes = {
    [`/${namespace}`]: { ...namespaceData(contract), _links: { self: [{ href: `${restRoot}${namespace}` }] } },
    [endpointRoute(contract)]: endpointData(contract, routeArguments, false, restRoot),
  };
  if (matched.kind === 'namespace') return jsonAnswer(200, { namespace, routes, _links: { up: [{ href: restRoot }] } });
  if (matched.kind === 'index') {
    return jsonAnswer(200, {
      name: 'Sandbox of the Subscription Lifecycle Action Service',
      description: 'A local imitation of a WordPress site with the service installed.',
      url: restRoot.replace(/\/wp-json\/$/, ''),
      home: restRoot.replace(/\/wp-json\/$/, ''),
      namespaces: [namespace],
      authentication: [],
      routes,
    });
  }
  return undefined;
}

/** A request WordPress hands to its themes rather than to the REST API: the front page or a 404 page. */
export function frontEndAnswer(home: boolean): Answer {
  return home
    ? hostAnswer(200, 'The site\'s front page: the endpoint is under /wp-json/.')
    : hostAnswer(404, 'Page not found. The endpoint is under /wp-json/.');
}
