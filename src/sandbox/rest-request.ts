import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../lib/contract/document.ts';
import { wordpressRestPrefix } from '../lib/contract/endpoint.ts';
import { jsonNesting } from '../lib/http/json-nesting.ts';
import { latin1 } from './bytes.ts';

/**
 * How WordPress core turns an HTTP request into a REST request, before any plugin sees it
 * (`rest_api_loaded`, `WP_REST_Server::serve_request`, `WP_REST_Request`): which route, which
 * method, and which parameters from where.
 */

/** The body as `WP_REST_Request::parse_json_params` leaves it. */
export type JsonBody =
  /** Not a JSON media type, or an empty body: no JSON parameters at all. */
  | { kind: 'none' }
  | { kind: 'parsed'; value: unknown; text: string }
  /** PHP's `json_decode` refused it: core answers `rest_invalid_json` with PHP's error. */
  | { kind: 'invalid'; errorCode: number; errorMessage: string };

export interface RestRequest {
  /** The route asked for, as core matches it: no trailing slash, `/` when empty. */
  route: string;
  /** After `?_method=` or `X-HTTP-Method-Override`, in upper case. */
  method: string;
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  /** A form body's fields (`application/x-www-form-urlencoded`, or a body with no media type). */
  form: Record<string, unknown>;
  json: JsonBody;
  /** `?_envelope`: the answer goes inside a 200's body, with its status and headers. */
  envelope: boolean;
  /** The site's REST root, `{site}/wp-json/`, for the `Link` header. */
  restRoot: string;
}

export type ReadRequest = { kind: 'rest'; request: RestRequest } | { kind: 'front-end'; home: boolean };

// `wp_is_json_media_type`: application/json, any `+json` type, case-insensitive.
const jsonMediaTypePattern = /(^|\s|,)application\/([\w!#$&\-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i;

/** The media type as `WP_REST_Request::get_content_type` reads it: lower case, before any `;`. */
function mediaTypeOf(headers: IncomingHttpHeaders): string | undefined {
  const raw = headers['content-type'];
  if (raw === undefined) return undefined;
  const value = raw.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return value.includes('/') ? value : undefined;
}

export function isJsonMediaType(headers: IncomingHttpHeaders): boolean {
  const mediaType = mediaTypeOf(headers);
  return mediaType !== undefined && jsonMediaTypePattern.test(mediaType);
}

/** PHP's `parse_str` for the flat and `name[]` forms a client sends. */
function parseFormText(text: string): Record<string, unknown> {
  // No prototype: PHP keeps `__proto__` as a name like any other, where assigning it here would set the prototype.
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (text === '') return fields;
  for (const [rawName, value] of new URLSearchParams(text)) {
    // PHP turns dots and spaces in a top-level name into underscores.
    const list = rawName.endsWith('[]');
    const name = (list ? rawName.slice(0, -2) : rawName).replace(/[. ]/g, '_');
    if (name === '') continue;
    if (list) {
      const existing = fields[name];
      fields[name] = Array.isArray(existing) ? [...existing, value] : [value];
    } else {
      fields[name] = value;
    }
  }
  return fields;
}

const phpJsonErrors = {
  depth: { errorCode: 1, errorMessage: 'Maximum stack depth exceeded' },
  syntax: { errorCode: 4, errorMessage: 'Syntax error' },
  utf8: { errorCode: 5, errorMessage: 'Malformed UTF-8 characters, possibly incorrectly encoded' },
  utf16: { errorCode: 10, errorMessage: 'Single unpaired UTF-16 surrogate in unicode escape' },
} as const;

/** `json_decode`'s default depth: 512 levels, so at most 511 nested arrays and objects. */
const phpMaximumNesting = 511;

// The byte-order mark is kept so that, as for PHP, it makes the body invalid JSON.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any string of a parsed body, or any member name, with an unpaired surrogate; walked with a list, not a call per level. */
function hasLoneSurrogate(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (loneSurrogate.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const member of item) pending.push(member);
    } else if (isRecord(item)) {
      for (const [key, member] of Object.entries(item)) {
        if (loneSurrogate.test(key)) return true;
        pending.push(member);
      }
    }
  }
  return false;
}

/**
 * PHP's `json_decode($body, true)` as WordPress calls it, with the error PHP would report. The
 * depth is counted on the text before anything parses it, as PHP's parser stops at the 512th level
 * before it reads on: a body nested past it is refused at any depth, and nothing here recurses on it.
 */
export function decodeJson(raw: Uint8Array): JsonBody {
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    return { kind: 'invalid', ...phpJsonErrors.utf8 };
  }
  if (jsonNesting(text, phpMaximumNesting) > phpMaximumNesting) return { kind: 'invalid', ...phpJsonErrors.depth };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', ...phpJsonErrors.syntax };
  }
  // Strictly decoded UTF-8 holds no lone surrogate, so only a `\u` escape can put one in the value.
  if (text.includes('\\u') && hasLoneSurrogate(value)) return { kind: 'invalid', ...phpJsonErrors.utf16 };
  return { kind: 'parsed', value, text };
}

/**
 * A top-level member of the JSON body as sent: its text for a number (which PHP may hold more
 * exactly than JavaScript), the value itself for a string. Read again from the body only when asked.
 */
export function sentMember(request: RestRequest, name: string): { source: string } | string | undefined {
  const { json } = request;
  if (json.kind !== 'parsed' || !isRecord(json.value)) return undefined;
  const member = json.value[name];
  if (typeof member === 'string') return member;
  if (typeof member !== 'number') return undefined;
  const sources: { holder: unknown; key: string; source: string }[] = [];
  const root: unknown = JSON.parse(json.text, function collect(this: unknown, key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && context?.source !== undefined) sources.push({ holder: this, key, source: context.source });
    return value;
  });
  const found = sources.findLast((entry) => entry.holder === root && entry.key === name);
  return found === undefined ? undefined : { source: found.source };
}

/** A request header's value, the first one when the header came several times. */
export function firstHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads an HTTP request as WordPress does. A request for the REST API is one whose path is under
 * `/wp-json` or that carries `?rest_route=` (on any path, the query winning over the path); any
 * other request reaches the site's front end.
 */
export function readRestRequest(basePath: string, method: string, target: string, headers: IncomingHttpHeaders, body: Uint8Array, siteUrl?: string): ReadRequest {
  const url = requestUrl(target);
  if (url === undefined) return { kind: 'front-end', home: false };
  const query = parseFormText(url.search.slice(1));
  const site = siteUrl ?? `http://${firstHeader(headers, 'host') ?? 'localhost'}${basePath}`;
  const restRoot = restRootOf(site);

  let route: string | undefined;
  const routeQuery = query.rest_route;
  if (typeof routeQuery === 'string' && routeQuery !== '') route = routeQuery;
  else if (url.pathname.startsWith(`${basePath}/`) || basePath === '') {
    // `/index.php/wp-json/…`: the PATH_INFO form of pretty permalinks, which WordPress serves too.
    const path = url.pathname.slice(basePath.length).replace(/^\/index\.php(?=\/)/, '');
    const prefix = wordpressRestPrefix;
    if (path === prefix || path.startsWith(`${prefix}/`)) {
      route = decodeURIComponentSafely(path.slice(prefix.length));
    }
  }
  if (route === undefined) {
    const path = url.pathname.slice(basePath.length);
    return { kind: 'front-end', home: url.pathname.startsWith(basePath) && (path === '' || path === '/' || path === '/index.php') };
  }
  route = route.replace(/[/\\]+$/, '');
  if (route === '') route = '/';

  const overrideQuery = query._method;
  const overrideHeader = firstHeader(headers, 'x-http-method-override');
  const effectiveMethod = typeof overrideQuery === 'string' ? overrideQuery : overrideHeader ?? method;

  const mediaType = mediaTypeOf(headers);
  const isJson = mediaType !== undefined && jsonMediaTypePattern.test(mediaType);
  // PHP's `empty()`: an empty body and the body "0" both count as no body.
  const emptyBody = body.length === 0 || (body.length === 1 && body[0] === 0x30);
  const json: JsonBody = isJson && !emptyBody ? decodeJson(body) : { kind: 'none' };
  const form =
    !isJson && !emptyBody && (mediaType === undefined || mediaType === 'application/x-www-form-urlencoded')
      ? parseFormText(latin1(body))
      : {};

  return {
    kind: 'rest',
    request: {
      route,
      method: effectiveMethod.toUpperCase(),
      headers,
      query,
      form,
      json,
      envelope: '_envelope' in query,
      restRoot,
    },
  };
}

/** The parts of a request target the REST API reads. */
interface TargetParts {
  pathname: string;
  search: string;
}

// A client sends the same target request after request: the last one is parsed once.
let lastTarget: { target: string; parts: TargetParts | undefined } | undefined;

/**
 * The request target as a URL. An origin-form target (`/path?query`) is read as a path even when it
 * starts with `//`, which a URL parser would take for a host; an absolute-form target is read as
 * it is. A target that is neither (`*`, or an absolute URL that does not parse) names no route.
 */
function requestUrl(target: string): TargetParts | undefined {
  if (lastTarget?.target === target) return lastTarget.parts;
  let parts: TargetParts | undefined;
  try {
    const { pathname, search } = target.startsWith('/') ? new URL(`http://sandbox.invalid${target}`) : new URL(target);
    parts = { pathname, search };
  } catch {
    parts = undefined;
  }
  lastTarget = { target, parts };
  return parts;
}

let lastSite: { site: string; restRoot: string } | undefined;

/** The site's REST root, `{site}/wp-json/`, kept for the site the last request named. */
function restRootOf(site: string): string {
  if (lastSite?.site !== site) lastSite = { site, restRoot: `${site.replace(/\/+$/, '')}${wordpressRestPrefix}/` };
  return lastSite.restRoot;
}

function decodeURIComponentSafely(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `WP_REST_Request::get_param`: the JSON body first, then a form body, then the query string. A
 * null value counts as absent, as PHP's `isset` has it.
 */
export function parameterSources(request: RestRequest): Record<string, unknown>[] {
  return [jsonMembers(request), request.form, request.query];
}

/** `WP_REST_Request::get_json_params` as a plugin reads it: a body that is not a JSON object has no members. */
export function jsonMembers(request: RestRequest): Record<string, unknown> {
  return request.json.kind === 'parsed' && isRecord(request.json.value) ? request.json.value : {};
}

export function getParameter(request: RestRequest, name: string): unknown {
  // The sources of parameterSources, in its order, read without building its list for every parameter.
  const fromJson = jsonMembers(request)[name];
  if (fromJson !== undefined && fromJson !== null) return fromJson;
  const fromForm = request.form[name];
  if (fromForm !== undefined && fromForm !== null) return fromForm;
  const fromQuery = request.query[name];
  return fromQuery === null ? undefined : fromQuery;
}
