import type { Action, Field } from '../lib/contract/model.ts';
import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import { outcomeOf } from '../lib/contract/lifecycle.ts';
import { acceptanceCases, openEndValues } from './acceptance-cases.ts';
import type { CaseRequest, CaseSettings, ConformanceCase, Expectation } from './case-model.ts';
import { jsonHeaders, lifecycleExpectation, postRequest, probeTarget, unknownFieldName, validBody } from './case-model.ts';

export type { CaseGroup, CaseNeeds, CaseRequest, CaseSettings, ConformanceCase, Expectation } from './case-model.ts';
export { postRequest, probeTarget, validBody } from './case-model.ts';

function lifecycleCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  const { model } = contract;
  const cases: ConformanceCase[] = [];
  for (const action of model.actions) {
    const transition = action.transition;
    const targets: (string | undefined)[] = transition.kind === 'chosen' ? model.lifecycle.states : [undefined];
    for (const fromStatus of model.lifecycle.states) {
      for (const requestedStatus of targets) {
        const outcome = outcomeOf(transition, fromStatus, requestedStatus);
        const name = `${action.identifier}${requestedStatus === undefined ? '' : ` to ${requestedStatus}`} from ${fromStatus}`;
        cases.push({
          name,
          group: 'lifecycle',
          action: action.identifier,
          fromStatus,
          ...(requestedStatus === undefined ? {} : { requestedStatus }),
          outcome: outcome.kind,
          needs: { kind: 'status', status: fromStatus },
          request: (id) => postRequest(contract, validBody(contract, action, settings, id, requestedStatus)),
          expect: (id) => lifecycleExpectation(contract, action, fromStatus, requestedStatus, id),
        });
      }
    }
  }
  return cases;
}

/** Values that break one constraint of a field each, with what they break. */
function badValues(field: Field): { label: string; value: unknown }[] {
  const values: { label: string; value: unknown }[] = [];
  const type = field.type.replace(/ \(.*\)$/, '');
  if (type === 'integer' || type === 'number') values.push({ label: 'a string', value: 'not-a-number' });
  if (type === 'string') values.push({ label: 'a number', value: 12345 });
  for (const constraint of field.constraints) {
    const limit = constraint.limit ?? Number.NaN;
    if (constraint.keyword === 'enum') values.push({ label: 'a value not listed', value: `not-a-${field.name}` });
    if (constraint.keyword === 'minimum' && Number.isFinite(limit)) values.push({ label: `below ${limit}`, value: limit - 1 });
    if (constraint.keyword === 'maximum' && Number.isFinite(limit)) values.push({ label: `above ${limit}`, value: limit + 1 });
    if (constraint.keyword === 'exclusiveMinimum' && Number.isFinite(limit)) values.push({ label: `equal to ${limit}, which it must exceed`, value: limit });
    if (constraint.keyword === 'exclusiveMaximum' && Number.isFinite(limit)) values.push({ label: `equal to ${limit}, which it must stay below`, value: limit });
    if (constraint.keyword === 'maxLength' && Number.isFinite(limit)) values.push({ label: `longer than ${limit} characters`, value: 'x'.repeat(limit + 1) });
    if (constraint.keyword === 'minLength' && Number.isFinite(limit) && limit > 0) values.push({ label: `shorter than ${limit} characters`, value: 'x'.repeat(limit - 1) });
  }
  return values;
}

/**
 * Keys that are not the key but that a careless comparison takes for it: a longer one, a prefix
 * (`strncmp` or `str_starts_with` the wrong way round), the key in another case (`strcasecmp`) and
 * the key with spaces around it (`trim`). Only the exact key opens the route.
 */
export function wrongKeys(credential: string, apiKey: string): { name: string; key: string }[] {
  const otherCase = apiKey.toUpperCase() === apiKey ? apiKey.toLowerCase() : apiKey.toUpperCase();
  const keys = [
    { name: `with a wrong ${credential}`, key: `${apiKey}-wrong` },
    { name: `with ${credential} less its last character`, key: apiKey.slice(0, -1) },
    { name: `with the first character of ${credential} only`, key: apiKey.slice(0, 1) },
    { name: `with ${credential} in another case`, key: otherCase },
    { name: `with ${credential} between spaces`, key: ` ${apiKey} ` },
  ];
  const distinct = new Map<string, string>();
  for (const { name, key } of keys) if (key !== '' && key !== apiKey && !distinct.has(key)) distinct.set(key, name);
  return [...distinct].map(([key, name]) => ({ name, key }));
}

/**
 * The fields other actions take and this one does not, each with the value the other action's
 * request example gives it (or one of its type): valid for the route, refused for this action.
 */
export function otherActionsFields(contract: ExecutableContract, action: Action): Record<string, unknown> {
  const own = new Set(action.fields.map((field) => field.name));
  const fields: Record<string, unknown> = {};
  for (const other of contract.model.actions) {
    for (const field of other.fields) {
      if (own.has(field.name) || field.name in fields) continue;
      const example = (other.requestExample.value as Record<string, unknown>)[field.name];
      fields[field.name] = example ?? (/^(integer|number)/.test(field.type) ? 1 : /^boolean/.test(field.type) ? true : 'conformance');
    }
  }
  return fields;
}

/** Headers a deployment might wrongly read a key from: the common API-key and bearer-token places. */
function keyHeaders(credential: string, apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey, [credential.replaceAll('_', '-')]: apiKey };
}

/**
 * The key travels in the JSON body only (rule 2.1): sent anywhere else, with the body otherwise
 * valid, it is refused as missing (the key's error) or, for a body not sent as JSON, as that body's
 * error: never accepted.
 */
function keyElsewhereCases(contract: ExecutableContract, settings: CaseSettings, action: Action): ConformanceCase[] {
  const { model, errors } = contract;
  const { credential } = model.envelope;
  const withoutKey = (id: number) => {
    const body = validBody(contract, action, settings, id);
    delete body[credential];
    return body;
  };
  const refusals = [errors.invalidKey, errors.missingParameter, errors.invalidJson, errors.invalidParameter].map(({ status, code }) => ({ status, code }));
  const expect = (): Expectation => ({ status: errors.invalidKey.status, code: errors.invalidKey.code, refusals });
  const keyOnly = (place: string, request: (id: number) => CaseRequest): ConformanceCase => ({
    name: `with ${credential} only in ${place}`,
    group: 'request',
    action: action.identifier,
    needs: { kind: 'any' },
    request,
    expect: () => ({ status: errors.invalidKey.status, code: errors.invalidKey.code }),
  });
  return [
    keyOnly('the query string', (id) => {
      const request = postRequest(contract, withoutKey(id));
      return { ...request, path: `${request.path}?${new URLSearchParams({ [credential]: settings.apiKey }).toString()}` };
    }),
    keyOnly('a header', (id) => postRequest(contract, withoutKey(id), { ...jsonHeaders, ...keyHeaders(credential, settings.apiKey) })),
    {
      ...keyOnly('a form body', (id) => {
        const form = new URLSearchParams(Object.entries(validBody(contract, action, settings, id)).map(([name, value]) => [name, String(value)]));
        return postRequest(contract, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
      }),
      expect,
    },
  ];
}

function requestCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  const { model, errors } = contract;
  const { envelope } = model;
  const cases: ConformanceCase[] = [];
  // Sent as null, a required field is as missing as left out (`isset`, as WordPress reads it).
  const missing = (name: string, action: Action, field: string, asNull = false): ConformanceCase => ({
    name,
    group: 'request',
    action: action.identifier,
    needs: { kind: 'any' },
    request: (id) => {
      const body = validBody(contract, action, settings, id);
      if (asNull) body[field] = null;
      else delete body[field];
      return postRequest(contract, body);
    },
    expect: () => ({ status: errors.missingParameter.status, code: errors.missingParameter.code, missing: [field] }),
  });
  const rejected = (name: string, action: Action | undefined, field: string, build: (id: number) => Record<string, unknown>): ConformanceCase => ({
    name,
    group: 'request',
    ...(action === undefined ? {} : { action: action.identifier }),
    needs: { kind: 'any' },
    request: (id) => postRequest(contract, build(id)),
    expect: () => ({ status: errors.invalidParameter.status, code: errors.invalidParameter.code, rejected: [field] }),
  });

  for (const action of model.actions) {
    for (const field of action.fields) {
      if (field.name === envelope.credential || field.name === envelope.selector) continue;
      if (field.required) {
        cases.push(missing(`${action.identifier} without ${field.name}`, action, field.name));
        cases.push(missing(`${action.identifier} with ${field.name} null`, action, field.name, true));
      }
      for (const bad of badValues(field)) {
        cases.push(
          rejected(`${action.identifier} with ${field.name} ${bad.label}`, action, field.name, (id) => ({
            ...validBody(contract, action, settings, id),
            [field.name]: bad.value,
          })),
        );
      }
    }
    cases.push(
      rejected(`${action.identifier} with a field it does not take`, action, unknownFieldName, (id) => ({
        ...validBody(contract, action, settings, id),
        [unknownFieldName]: true,
      })),
    );
    // A plugin often checks a field against every field of the route, not the action's own.
    const others = otherActionsFields(contract, action);
    const otherNames = Object.keys(others);
    if (otherNames.length > 0) {
      cases.push({
        ...rejected(`${action.identifier} with the fields only other actions take (${otherNames.join(', ')})`, action, otherNames[0] ?? '', (id) => ({
          ...validBody(contract, action, settings, id),
          ...others,
        })),
        expect: () => ({ status: errors.invalidParameter.status, code: errors.invalidParameter.code, rejected: otherNames }),
      });
    }
  }

  const [first] = model.actions;
  if (first !== undefined) {
    cases.push(missing(`without ${envelope.selector}`, first, envelope.selector));
    cases.push(
      rejected(`an unknown ${envelope.selector}`, undefined, envelope.selector, (id) => ({
        ...validBody(contract, first, settings, id),
        [envelope.selector]: `not_an_${envelope.selector}`,
      })),
    );
    const withoutKey = (id: number) => {
      const body = validBody(contract, first, settings, id);
      delete body[envelope.credential];
      return body;
    };
    cases.push({
      name: `without ${envelope.credential}`,
      group: 'request',
      needs: { kind: 'any' },
      request: (id) => postRequest(contract, withoutKey(id)),
      expect: () => ({ status: errors.invalidKey.status, code: errors.invalidKey.code }),
    });
    cases.push(...keyElsewhereCases(contract, settings, first));
    for (const wrong of wrongKeys(envelope.credential, settings.apiKey)) {
      cases.push({
        name: wrong.name,
        group: 'request',
        needs: { kind: 'any' },
        request: (id) => postRequest(contract, { ...validBody(contract, first, settings, id), [envelope.credential]: wrong.key }),
        expect: () => ({ status: errors.invalidKey.status, code: errors.invalidKey.code }),
      });
    }
  }
  cases.push({
    name: 'a body that is not JSON',
    group: 'request',
    needs: { kind: 'none' },
    request: () => postRequest(contract, `{"${envelope.credential}": "${settings.apiKey}", `),
    expect: () => ({ status: errors.invalidJson.status, code: errors.invalidJson.code }),
  });
  cases.push({
    name: 'a body that is not UTF-8',
    group: 'request',
    needs: { kind: 'none' },
    request: () => postRequest(contract, Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
    expect: () => ({ status: errors.invalidJson.status, code: errors.invalidJson.code }),
  });

  const probe = probeTarget(contract);
  if (probe !== undefined) {
    cases.push({
      name: 'a subscription the site does not have',
      group: 'request',
      needs: { kind: 'none' },
      request: () => postRequest(contract, validBody(contract, probe.action, settings, settings.unknownSubscriptionId, probe.status)),
      expect: () => ({ status: errors.subscriptionNotFound.status, code: errors.subscriptionNotFound.code }),
    });
    // IDs past what installs commonly store an ID in: a site that keeps them in a 32-bit column
    // must still answer that it has no such subscription, not refuse the ID the contract allows.
    const subject = probe.action.fields.find((field) => field.name === envelope.subject);
    const taken = new Set([settings.unknownSubscriptionId, ...(settings.namedSubscriptions ?? [])]);
    for (const end of subject === undefined ? [] : openEndValues(subject)) {
      if (typeof end.value !== 'number' || taken.has(end.value)) continue;
      const id = end.value;
      taken.add(id);
      cases.push({
        name: `a subscription the site does not have, ${envelope.subject} ${end.label}`,
        group: 'request',
        needs: { kind: 'none' },
        request: () => postRequest(contract, validBody(contract, probe.action, settings, id, probe.status)),
        expect: () => ({ status: errors.subscriptionNotFound.status, code: errors.subscriptionNotFound.code }),
      });
    }
  }
  return cases;
}

/** Methods a client could send instead of the endpoint's. OPTIONS is left out: WordPress answers it for every route. */
const otherMethods = ['GET', 'PUT', 'PATCH', 'DELETE'];

function routeCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  const { endpoint } = contract.model;
  const { noRoute } = contract.errors;
  const [first] = contract.model.actions;
  const body = first === undefined ? '{}' : JSON.stringify(validBody(contract, first, settings, settings.unknownSubscriptionId));
  const expect = (): Expectation => ({ status: noRoute.status, code: noRoute.code });
  return [
    ...otherMethods
      .filter((method) => method !== endpoint.method)
      .map(
        (method): ConformanceCase => ({
          name: `${method} instead of ${endpoint.method}`,
          group: 'route',
          needs: { kind: 'none' },
          request: () => ({ method, path: endpoint.urlPath, headers: {} }),
          expect,
        }),
      ),
    {
      name: 'another path in the same namespace',
      group: 'route',
      needs: { kind: 'none' },
      request: () => ({ method: endpoint.method, path: `${endpoint.versionNamespace}conformance-no-such-route`, headers: jsonHeaders, body }),
      expect,
    },
  ];
}

function hostCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  const probe = probeTarget(contract);
  const seconds = '2';
  return [
    {
      name: `a throttled request (${settings.throttleHeader}: ${seconds})`,
      group: 'host',
      needs: probe === undefined ? { kind: 'none' } : { kind: 'any' },
      hostImitation: true,
      request: (id) =>
        postRequest(contract, probe === undefined ? {} : validBody(contract, probe.action, settings, id, probe.status), { ...jsonHeaders, [settings.throttleHeader]: seconds }),
      expect: () => ({ status: Number(contract.throttled.status), retryAfter: seconds }),
    },
  ];
}

/** Every case the document gives, in the order the suite reports them. */
export function generateCases(contract: ExecutableContract, settings: CaseSettings): ConformanceCase[] {
  return [
    ...lifecycleCases(contract, settings),
    ...acceptanceCases(contract, settings),
    ...requestCases(contract, settings),
    ...routeCases(contract, settings),
    ...hostCases(contract, settings),
  ];
}
