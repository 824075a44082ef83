/**
 * One battery of requests to send to the reference plugin in a real WordPress and to the sandbox,
 * which must answer each with the same status and `code`. Every field, value and route comes from
 * the document; what is typed here is only what WordPress core decides (methods, media types,
 * query parameters, odd JSON).
 */
import { request as httpRequest } from 'node:http';
import { validBody } from '../../src/conformance/cases.ts';
import type { ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { wordpressRestPrefix } from '../../src/lib/contract/endpoint.ts';
import { isRecord } from '../../src/lib/contract/document.ts';
import { routeArguments } from '../../src/lib/contract/route-arguments.ts';

export interface BatteryRequest {
  name: string;
  method: string;
  /** Path and query, appended to the site's base URL. */
  target: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The message must agree too, where WordPress or PHP words it (a list, a number PHP prints). */
  compareMessage?: boolean;
}

/** What two servers must agree on: the status, the error code, and the inner ones of an envelope. */
export interface Verdict {
  status: number;
  code?: unknown;
  envelopedStatus?: unknown;
  envelopedCode?: unknown;
  /** Headers WordPress adds, as present or absent (their values differ by host and port). */
  headers: Record<string, boolean>;
  mediaType: string;
  /** Each rejected field's WordPress code and `data` in `data.details`. */
  details?: unknown;
  /** `data.params`: the missing fields' list, or the object mapping each rejected field to its reason. */
  params?: unknown;
  message?: unknown;
  /** `?_envelope`: the headers inside, which differ by nothing host-dependent. */
  envelopedHeaders?: unknown;
  /** With a `Host` of its own: whether the answer (its `Link`, its body) names that host rather than the site. */
  namesSentHost?: boolean;
}

export interface BatterySubjects {
  apiKey: string;
  /** No subscription has this ID on either side. */
  unknownId: number;
  /** Subscriptions placed in the same status on both sides, changed by the battery in the same order. */
  lifecycleIds: { id: number; status: string }[];
}

const json = { 'content-type': 'application/json' };

function requestsFor(contract: ExecutableContract, subjects: BatterySubjects): BatteryRequest[] {
  const { model } = contract;
  const { endpoint, envelope } = model;
  const route = endpoint.urlPath;
  const restRoute = route.slice(wordpressRestPrefix.length);
  const [first] = model.actions;
  if (first === undefined) return [];
  const unknownBody = (overrides: Record<string, unknown> = {}) => ({ ...validBody(contract, first, subjects, subjects.unknownId), ...overrides });
  const post = (name: string, body: unknown, target = route, headers: Record<string, string> = json): BatteryRequest => ({
    name,
    method: endpoint.method,
    target,
    headers,
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const requests: BatteryRequest[] = [];

  // Methods and routes.
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
    requests.push({ name: `${method} on the route`, method, target: route, headers: json, ...(method === 'GET' || method === 'HEAD' ? {} : { body: JSON.stringify(unknownBody()) }) });
  }
  requests.push({ name: 'a CORS preflight', method: 'OPTIONS', target: route, headers: { origin: 'https://back-office.example', 'access-control-request-method': endpoint.method, 'access-control-request-headers': 'content-type' } });
  requests.push(post('a trailing slash', unknownBody(), `${route}/`));
  requests.push(post('two trailing slashes', unknownBody(), `${route}//`));
  requests.push(post('the route in upper case', unknownBody(), `${wordpressRestPrefix}${restRoute.toUpperCase()}`));
  requests.push(post('?rest_route= on the front page', unknownBody(), `/?rest_route=${restRoute}`));
  requests.push(post('?rest_route= on index.php', unknownBody(), `/index.php?rest_route=${restRoute}`));
  requests.push(post('another route in the namespace', unknownBody(), `${endpoint.versionNamespace}no-such-route`));
  requests.push(post('another version', unknownBody(), route.replace(`/${endpoint.versionSegment}/`, '/v999/')));
  requests.push({ name: 'the namespace index', method: 'GET', target: endpoint.versionNamespace.replace(/\/$/, ''), headers: {} });
  requests.push(post('POST to the namespace index', unknownBody(), endpoint.versionNamespace.replace(/\/$/, '')));
  requests.push({ name: 'the REST index', method: 'GET', target: `${wordpressRestPrefix}/`, headers: {} });
  requests.push(post('?_method=GET', unknownBody(), `${route}?_method=GET`));
  requests.push({ name: 'PUT with ?_method=POST', method: 'PUT', target: `${route}?_method=POST`, headers: json, body: JSON.stringify(unknownBody()) });
  requests.push({ name: 'PUT with X-HTTP-Method-Override: POST', method: 'PUT', target: route, headers: { ...json, 'x-http-method-override': 'POST' }, body: JSON.stringify(unknownBody()) });
  requests.push(post('X-HTTP-Method-Override: DELETE', unknownBody(), route, { ...json, 'x-http-method-override': 'DELETE' }));
  requests.push(post('?_envelope on a 404', unknownBody(), `${route}?_envelope`));
  requests.push(post('?_envelope on a 400', unknownBody({ [envelope.subject]: 'x' }), `${route}?_envelope=1`));

  // Media types.
  const valid = JSON.stringify(unknownBody());
  for (const mediaType of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', 'text/json', 'application/jsonx']) {
    requests.push(post(`JSON sent as ${mediaType}`, valid, route, { 'content-type': mediaType }));
  }
  requests.push(post('JSON sent with no media type', valid, route, {}));
  const form = new URLSearchParams(Object.entries(unknownBody()).map(([name, value]) => [name, String(value)])).toString();
  requests.push(post('the fields as a form', form, route, { 'content-type': 'application/x-www-form-urlencoded' }));

  // Malformed and odd JSON.
  const odd: [string, string | Uint8Array][] = [
    ['an empty body', ''],
    ['the body 0', '0'],
    ['only spaces', '   '],
    ['a cut-off object', '{"action": '],
    ['a byte-order mark', `\uFEFF${valid}`],
    ['bytes that are not UTF-8', Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
    ['an unpaired surrogate escape', `{"${envelope.note ?? 'note'}": "\\ud800"}`],
    ['511 levels of nesting', `${'['.repeat(511)}${']'.repeat(511)}`],
    ['512 levels of nesting', `${'['.repeat(512)}${']'.repeat(512)}`],
    ['100,000 levels of nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['100,000 levels of objects, cut off', '{"a":'.repeat(100_000)],
    ['600 levels of nesting, then a syntax error', `${'['.repeat(600)}x`],
    ['a list', '[1, 2]'],
    ['a string', '"text"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
    ['an empty object', '{}'],
    ['trailing text', `${valid} x`],
    ['a trailing comma', valid.replace(/}$/, ',}')],
    ['single quotes', valid.replaceAll('"', "'")],
    ['a duplicated member, the last one valid', valid.replace(/^\{/, `{"${envelope.subject}": "x", `)],
  ];
  for (const [name, body] of odd) requests.push(post(name, body));

  // Every argument's wrong types and bounds, on a request that is otherwise valid.
  // Numbers that name no subscription on either side, however they are written.
  const unknown = subjects.unknownId;
  const probes: unknown[] = ['text', String(unknown), ` ${unknown} `, `${unknown}.0`, `${unknown / 1000}e3`, unknown, unknown + 0.5, 0, -1, true, false, null, [], {}, [1], '', 'x'.repeat(501)];
  for (const argument of routeArguments(contract)) {
    for (const value of probes) {
      requests.push(post(`${argument.name} = ${JSON.stringify(value).slice(0, 20)}`, unknownBody({ [argument.name]: value })));
    }
    if (argument.schema.maxLength !== undefined) {
      requests.push(post(`${argument.name} at its maximum length in multibyte characters`, unknownBody({ [argument.name]: 'é'.repeat(argument.schema.maxLength) })));
    }
  }
  // Each action: without each required field, with a field it does not take, and fields from elsewhere.
  for (const action of model.actions) {
    const body = validBody(contract, action, subjects, subjects.unknownId);
    for (const field of action.fields.filter((candidate) => candidate.required)) {
      const { [field.name]: _removed, ...rest } = body;
      requests.push(post(`${action.identifier} without ${field.name}`, rest));
      requests.push(post(`${action.identifier} with ${field.name} null`, { ...body, [field.name]: null }));
    }
    requests.push(post(`${action.identifier} with an unknown field`, { ...body, unknown_field: 1 }));
    requests.push(post(`${action.identifier} with an unknown field set to null`, { ...body, unknown_field: null }));
    // Names a JavaScript object holds on its prototype; PHP's arrays have none, so each is a field like any other.
    for (const name of ['__proto__', 'constructor', 'toString']) {
      requests.push(post(`${action.identifier} with a member named ${name}`, `{${JSON.stringify(name)}:{"a":1},${JSON.stringify(body).slice(1)}`));
    }
    for (const other of routeArguments(contract).filter((argument) => !action.fields.some((field) => field.name === argument.name))) {
      requests.push(post(`${action.identifier} with ${other.name}, which it does not take`, { ...body, [other.name]: other.schema.enum?.[0] ?? 1 }));
    }
  }
  // A required field sent as null to a subscription that exists, where no 404 comes first: core
  // sanitises the null into '' before the plugin's check, which must still count it as missing.
  const [existing] = subjects.lifecycleIds;
  if (existing !== undefined) {
    for (const action of model.actions) {
      const body = validBody(contract, action, subjects, existing.id);
      for (const field of action.fields.filter((candidate) => candidate.required)) {
        requests.push(post(`${action.identifier} with ${field.name} null, on subscription ${existing.id}`, { ...body, [field.name]: null }));
      }
    }
  }
  // Unknown fields named as PHP's list indexes: still an object mapping each to its reason, in the
  // order of the body (the message shows it; JSON.parse would sort such names in the verdict).
  const withMessage = (request: BatteryRequest): BatteryRequest => ({ ...request, compareMessage: true });
  requests.push(withMessage(post('an unknown field named "0"', { ...unknownBody(), 0: 1 })));
  requests.push(withMessage(post('unknown fields named "1" and "0", in that order', `{"1":2,"0":1,${JSON.stringify(unknownBody()).slice(1)}`)));
  // What WordPress and PHP word or print: the list of an enum, numbers past JavaScript's integers.
  requests.push(withMessage(post(`${envelope.selector} not one of the actions`, unknownBody({ [envelope.selector]: 'no_such_action' }))));
  const rawSubject = (literal: string) => JSON.stringify(unknownBody({ [envelope.subject]: 0 })).replace(`"${envelope.subject}":0`, `"${envelope.subject}":${literal}`);
  // Past PHP's integers too: an infinite float (`INF`), and numeric strings PHP's (int) cast saturates or makes 0.
  const hugeLiterals = ['1e999', '9'.repeat(400), '"99999999999999999999"', '"1e30"', '"1e999"'];
  for (const literal of ['9007199254740993', '"9007199254740993"', '9223372036854775807', '9223372036854775808', '1e30', '1000000000000000000000000000000', ...hugeLiterals]) {
    const shown = literal.length > 40 ? `${literal.slice(0, 5)}… (${literal.length} digits)` : literal;
    requests.push(withMessage(post(`${envelope.subject} ${shown}, past JavaScript's integers`, rawSubject(literal))));
  }
  // The site's address, never the client's Host; the PATH_INFO form of the route.
  requests.push(post('another Host header', unknownBody(), route, { ...json, host: 'evil.example' }));
  requests.push({ name: 'the REST index with another Host header', method: 'GET', target: `${wordpressRestPrefix}/`, headers: { host: 'evil.example' } });
  requests.push(post('the route under /index.php/', unknownBody(), `/index.php${route}`));
  requests.push(post('?_envelope once the key passed', unknownBody(), `${route}?_envelope`));

  // The key.
  requests.push(post('no key', unknownBody({ [envelope.credential]: undefined })));
  requests.push(post('a wrong key', unknownBody({ [envelope.credential]: `${subjects.apiKey}-wrong` })));
  requests.push(post('the key in another case', unknownBody({ [envelope.credential]: subjects.apiKey.toUpperCase() })));
  requests.push(post('the key less its last character', unknownBody({ [envelope.credential]: subjects.apiKey.slice(0, -1) })));
  requests.push(post("the key's first character only", unknownBody({ [envelope.credential]: subjects.apiKey.slice(0, 1) })));
  requests.push(post('the key with spaces around it', unknownBody({ [envelope.credential]: ` ${subjects.apiKey} ` })));
  requests.push(post('a wrong key and an unknown field', unknownBody({ [envelope.credential]: 'wrong', unknown_field: 1 })));
  requests.push(post('a wrong key and a wrong type', unknownBody({ [envelope.credential]: 'wrong', [envelope.subject]: 'x' })));
  requests.push(post('the key only in the query string', unknownBody({ [envelope.credential]: undefined }), `${route}?${envelope.credential}=${encodeURIComponent(subjects.apiKey)}`));
  requests.push(post('a bad subscription in the query string', unknownBody(), `${route}?${envelope.subject}=x`));
  requests.push(post('the subscription only in the query string', unknownBody({ [envelope.subject]: undefined }), `${route}?${envelope.subject}=${subjects.unknownId}`));
  requests.push(post('a CORS request', unknownBody(), route, { ...json, origin: 'https://back-office.example' }));

  // The note travels in the JSON body only: one in the query string is not the request's (the
  // history row it would land in is checked in wordpress-reference.test.ts).
  const noteTaker = envelope.note === undefined ? undefined : model.actions.find((action) => action.fields.some((field) => field.name === envelope.note));
  if (noteTaker !== undefined && envelope.note !== undefined && existing !== undefined) {
    const { [envelope.note]: _note, ...withoutNote } = validBody(contract, noteTaker, subjects, existing.id);
    requests.push(post(`${noteTaker.identifier} with ${envelope.note} only in the query string`, withoutNote, `${route}?${envelope.note}=from-the-query-string`));
  }

  // The lifecycle, on subscriptions placed alike on both sides: every action once on each, twice in a row.
  for (const { id } of subjects.lifecycleIds) {
    for (const action of model.actions) {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const target = action.transition.kind === 'chosen' ? model.lifecycle.states[attempt % model.lifecycle.states.length] : undefined;
        requests.push(post(`${action.identifier} on subscription ${id} (${attempt})`, validBody(contract, action, subjects, id, target)));
      }
    }
  }
  return requests;
}

export function requestBattery(contract: ExecutableContract, subjects: BatterySubjects): BatteryRequest[] {
  return requestsFor(contract, subjects);
}

/** The WordPress headers a verdict records as present or absent. */
const watchedHeaders = ['link', 'x-robots-tag', 'x-content-type-options', 'allow', 'access-control-allow-origin', 'access-control-allow-headers', 'access-control-expose-headers'];

/** Sends one request over plain HTTP, exactly as given, and reads what two servers must agree on. */
export function sendForVerdict(baseUrl: string, request: BatteryRequest, paramsMember: string): Promise<Verdict> {
  const url = new URL(`${baseUrl}${request.target}`);
  return new Promise((resolve, reject) => {
    // Node sends a DELETE's or an OPTIONS's body without a length unless told one.
    const length = request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) };
    const outgoing = httpRequest(url, { method: request.method, headers: { ...request.headers, ...length }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const mediaType = (response.headers['content-type'] ?? '').split(';', 1)[0]?.trim() ?? '';
        let parsed: unknown;
        try {
          parsed = mediaType === 'application/json' ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        const body = isRecord(parsed) ? parsed : {};
        const inner = isRecord(body.body) ? body.body : {};
        const enveloped = request.target.includes('_envelope');
        const data = isRecord(body.data) ? body.data : {};
        const sentHost = request.headers.host;
        resolve({
          status: response.statusCode ?? 0,
          mediaType,
          ...(body.code === undefined ? {} : { code: body.code }),
          ...(enveloped ? { envelopedStatus: body.status, envelopedCode: inner.code, envelopedHeaders: body.headers } : {}),
          headers: Object.fromEntries(watchedHeaders.map((name) => [name, response.headers[name] !== undefined])),
          ...(isRecord(data.details) ? { details: Object.fromEntries(Object.entries(data.details).map(([field, detail]) => [field, isRecord(detail) ? { code: detail.code, data: detail.data } : detail])) } : {}),
          ...(data[paramsMember] === undefined ? {} : { params: data[paramsMember] }),
          ...(request.compareMessage === true ? { message: body.message } : {}),
          ...(sentHost === undefined ? {} : { namesSentHost: `${String(response.headers.link)} ${text}`.includes(sentHost) }),
        });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    if (request.body !== undefined) outgoing.end(request.body);
    else outgoing.end();
  });
}
