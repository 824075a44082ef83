import type { IncomingHttpHeaders } from 'node:http';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { Answer } from './answer.ts';
import { errorAnswer } from './answer.ts';
import { applyAction } from './apply.ts';
import { imitateHost, payloadTooLarge } from './host.ts';
import { matchRoute, methodsOf } from './route.ts';
import type { RouteArgument } from '../lib/contract/route-arguments.ts';
import { routeArguments } from '../lib/contract/route-arguments.ts';
import type { RestRequest } from './rest-request.ts';
import { readRestRequest, sentMember } from './rest-request.ts';
import type { ExampleStarts } from './seed.ts';
import type { SubscriptionStore } from './store.ts';
import { checkActionFields, checkArguments, invalidJsonAnswer, invalidKeyAnswer, keyAccepted, validRequest } from './validate.ts';
import { coreAnswer, envelope, frontEndAnswer, restHeaders } from './wordpress-response.ts';

/*
 * The sandbox's answer to one request, from the request alone: no server, no file, no `node:`
 * module at run time (the imports from Node are types), so the same stages answer over HTTP
 * (server.ts), in the product-information server's request check, on workerd and in a browser's
 * worker (src/sandbox/in-browser/).
 */

/** A request as the stages read it: what came over HTTP, the body already read. */
export interface SandboxRequest {
  method: string;
  /** The request target: the path, and the query string if any. */
  target: string;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
  /** The body was longer than the sandbox reads; `body` holds only its start. */
  tooLarge: boolean;
}

export interface SandboxSettings {
  apiKey: string;
  basePath: string;
  /**
   * The site's address, as WordPress's `siteurl` option: what `Link` and the REST index name, never
   * the client's `Host`. Without one (the sandbox answering in process), the `Host` header stands in.
   */
  siteUrl?: string;
  /**
   * Given when the sandbox holds its own seed: an example's subscription that no request has
   * changed yet answers each action's example from the status that example starts from.
   */
  exampleStarts?: ExampleStarts;
}

/**
 * WordPress core first (the host's answers, the route, the JSON, the route's arguments), then the
 * plugin (the action's own fields, the key, the subscription, the lifecycle), then what core adds
 * around the answer (its headers, `Allow`, `?_envelope`). Each stage either answers or hands on.
 */
export function answerRequest(contract: ExecutableContract, store: SubscriptionStore, settings: SandboxSettings, request: SandboxRequest): Answer {
  const host = imitateHost(contract, request.headers);
  if (host !== undefined) return host;
  if (request.tooLarge) return payloadTooLarge();
  const read = readRestRequest(settings.basePath, request.method, request.target, request.headers, request.body, settings.siteUrl);
  if (read.kind === 'front-end') return frontEndAnswer(read.home);
  const rest = read.request;
  const routeArguments = argumentsOf(contract);

  const matched = matchRoute(contract, rest);
  let answer: Answer;
  // Core sends `Allow` for a request that reached a route, listing the methods whose permission
  // callback lets this very request through: the endpoint's only once the key passes.
  let allow: string | undefined;
  if (matched === undefined) {
    answer = errorAnswer(contract, contract.errors.noRoute, contract.errors.noRoute.message);
  } else {
    const reachesRoute = rest.method === 'OPTIONS' || methodsOf(contract, matched).includes(rest.method);
    if (reachesRoute) allow = matched.kind !== 'endpoint' ? methodsOf(contract, matched).join(', ') : keyAccepted(contract, rest, settings.apiKey) ? contract.model.endpoint.method : undefined;
    const core = coreAnswer(contract, routeArguments, rest, matched);
    if (core !== undefined) answer = core;
    else if (matched.kind !== 'endpoint' || rest.method !== contract.model.endpoint.method) {
      answer = errorAnswer(contract, contract.errors.noRoute, contract.errors.noRoute.message);
    } else {
      answer = endpointAnswer(contract, store, settings, routeArguments, rest);
    }
  }
  const responseHeaders: Record<string, string> = allow === undefined ? {} : { allow };
  // The envelope holds the headers of the response object only (`Allow`), not those core sends itself.
  if (rest.envelope) answer = envelope(answer, responseHeaders);
  else Object.assign(answer.headers, responseHeaders);
  // Core's own headers come first; the answer's own take their place where both name one.
  return { ...answer, headers: Object.assign(restHeaders(rest, request.method.toUpperCase()), answer.headers) };
}

function endpointAnswer(contract: ExecutableContract, store: SubscriptionStore, settings: SandboxSettings, routeArguments: readonly RouteArgument[], rest: RestRequest): Answer {
  const invalidJson = invalidJsonAnswer(contract, rest);
  if (invalidJson !== undefined) return invalidJson;
  const checked = checkArguments(contract, routeArguments, rest);
  if ('answer' in checked) return checked.answer;
  const selected = checkActionFields(contract, checked.value, rest);
  if ('answer' in selected) return selected.answer;
  if (!keyAccepted(contract, rest, settings.apiKey)) return invalidKeyAnswer(contract);
  // The ID's text as sent is read again from the body only for an ID JavaScript cannot hold
  // exactly, the one case where the plugin's messages print what PHP held instead.
  const { subject } = contract.model.envelope;
  const sentSubject = Number.isSafeInteger(checked.value[subject]) ? undefined : sentMember(rest, subject);
  return applyAction(contract, store, validRequest(contract, selected.value, checked.value, sentSubject), settings.exampleStarts);
}

const argumentsByContract = new WeakMap<ExecutableContract, RouteArgument[]>();

function argumentsOf(contract: ExecutableContract): RouteArgument[] {
  let routeArgumentList = argumentsByContract.get(contract);
  if (routeArgumentList === undefined) {
    routeArgumentList = routeArguments(contract);
    argumentsByContract.set(contract, routeArgumentList);
  }
  return routeArgumentList;
}

