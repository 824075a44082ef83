import { createContractValidator, type ErrorObject } from '../schema-validator.ts';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  ContractError,
  isRecord,
  isReference,
  resolvePointer,
  type OpenApiDocument,
  type SchemaObject,
} from '../document.ts';
import { extensibleValues } from '../extensible-enum.ts';
import { ruleLabel, type SpecRuleId } from '../../spec-rules.ts';
import type { GateContext, GateProblem, GateStep } from './gate.ts';
import { createSourceLocator, pointerFrom } from './source-files.ts';
import { httpMethods } from '../../http/methods.ts';

/** The eight action identifiers of rule 4.1c (src/lib/spec-rules.ts), exactly as specified. */
export const specifiedActions = [
  'cancel_subscription',
  'pause_subscription',
  'resume_subscription',
  'reactivate_subscription',
  'expire_subscription',
  'change_status',
  'trial_end',
  'payment_failed',
] as const;

/** Where the endpoint lives, server and path together (rules 4.1b and 9.1). */
export const endpointPath = '/wp-json/service/v1/action';

/** The placeholder the specification writes for a key in its table of body fields (section 4.1). */
export const apiKeyPlaceholder = '<API_KEY>';

/** Something a check found, at a JSON pointer of the bundled document. */
export interface Finding {
  pointer: string;
  message: string;
}

/** One rule of the interface specification, checked over the bundled document. */
export interface ContractCheck {
  name: string;
  /** What the check enforces, in a sentence. */
  rule: string;
  /**
   * The rules of the specification it guards (src/lib/spec-rules.ts). A check that guards a
   * decision recorded in openapi/README.md rather than a rule of the specification has none.
   */
  rules: readonly SpecRuleId[];
  run(document: OpenApiDocument): Finding[];
}

/* ----------------------------------------------------------------------------------------------
 * Reading the bundled document. Every reader narrows what it finds with a type guard and keeps
 * the pointer it found it at, so a finding can name the source file. A reader that finds nothing
 * returns `undefined`; the one check whose rule covers the missing part reports it, the others
 * skip, so each fault is reported once.
 * -------------------------------------------------------------------------------------------- */

interface Located<T> {
  node: T;
  pointer: string;
}

function isSchemaObject(value: unknown): value is SchemaObject {
  return isRecord(value) && !isReference(value);
}

function isPathItem(value: unknown): value is OpenAPIV3_1.PathItemObject {
  return isRecord(value) && !isReference(value);
}

function isOperation(value: unknown): value is OpenAPIV3_1.OperationObject {
  return isRecord(value) && !isReference(value);
}

function isRequestBody(value: unknown): value is OpenAPIV3_1.RequestBodyObject {
  return isRecord(value) && isRecord(value.content);
}

function isMediaType(value: unknown): value is OpenAPIV3_1.MediaTypeObject {
  return isRecord(value);
}

function isResponse(value: unknown): value is OpenAPIV3_1.ResponseObject {
  return isRecord(value) && !isReference(value);
}

function isParameter(value: unknown): value is OpenAPIV3_1.ParameterObject {
  return isRecord(value) && typeof value.name === 'string' && typeof value.in === 'string';
}

function isExample(value: unknown): value is OpenAPIV3_1.ExampleObject {
  return isRecord(value) && !isReference(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Follows local references from `pointer`, keeping the pointer of what they lead to. */
function follow(document: OpenApiDocument, node: unknown, pointer: string): Located<unknown> {
  let current: Located<unknown> = { node, pointer };
  const seen = new Set<string>();
  while (isReference(current.node) && !seen.has(current.node.$ref)) {
    seen.add(current.node.$ref);
    const target = current.node.$ref;
    try {
      current = { node: resolvePointer(document, target), pointer: target };
    } catch (error) {
      if (error instanceof ContractError) return { node: undefined, pointer: current.pointer };
      throw error;
    }
  }
  return current;
}

function child(parent: Located<unknown>, ...segments: (string | number)[]): Located<unknown> {
  let node = parent.node;
  for (const segment of segments) {
    node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[String(segment)] : undefined;
  }
  return { node, pointer: `${parent.pointer}/${pointerFrom(segments).slice(2)}` };
}

function rootOf(document: OpenApiDocument): Located<unknown> {
  return { node: document, pointer: '#' };
}

/**
 * The path item of the endpoint: `/action` when it is there, otherwise the only (or first)
 * path, so that the other checks still look at the operation when the path itself is wrong.
 */
function endpointPathItem(document: OpenApiDocument): Located<OpenAPIV3_1.PathItemObject> | undefined {
  const keys = Object.keys(document.paths ?? {});
  const key = keys.includes('/action') ? '/action' : keys[0];
  if (key === undefined) return undefined;
  const item = follow(document, document.paths?.[key], pointerFrom(['paths', key]));
  return isPathItem(item.node) ? { node: item.node, pointer: item.pointer } : undefined;
}

function postOperation(document: OpenApiDocument): Located<OpenAPIV3_1.OperationObject> | undefined {
  const pathItem = endpointPathItem(document);
  if (pathItem === undefined) return undefined;
  const operation = child(pathItem, 'post');
  return isOperation(operation.node) ? { node: operation.node, pointer: operation.pointer } : undefined;
}

function requestMediaType(document: OpenApiDocument): Located<OpenAPIV3_1.MediaTypeObject> | undefined {
  const operation = postOperation(document);
  if (operation === undefined) return undefined;
  const body = follow(document, operation.node.requestBody, `${operation.pointer}/requestBody`);
  if (!isRequestBody(body.node)) return undefined;
  const mediaType = child(body, 'content', 'application/json');
  return isMediaType(mediaType.node) ? { node: mediaType.node, pointer: mediaType.pointer } : undefined;
}

function requestSchema(document: OpenApiDocument): Located<SchemaObject> | undefined {
  const mediaType = requestMediaType(document);
  if (mediaType === undefined) return undefined;
  const schema = follow(document, mediaType.node.schema, `${mediaType.pointer}/schema`);
  return isSchemaObject(schema.node) ? { node: schema.node, pointer: schema.pointer } : undefined;
}

/** One `oneOf` branch of the request body: the schema of one action. */
interface ActionBranch extends Located<SchemaObject> {
  /** The `const` of its `action` property, if it has one. */
  action: string | undefined;
  /** A name for messages: the action, or the component the branch comes from. */
  label: string;
}

function actionBranches(document: OpenApiDocument): ActionBranch[] {
  const schema = requestSchema(document);
  if (schema === undefined || !Array.isArray(schema.node.oneOf)) return [];
  return schema.node.oneOf.flatMap((branch, index) => {
    const located = follow(document, branch, `${schema.pointer}/oneOf/${index}`);
    if (!isSchemaObject(located.node)) return [];
    const actionProperty = follow(document, located.node.properties?.action, `${located.pointer}/properties/action`);
    const constant = isSchemaObject(actionProperty.node) ? actionProperty.node.const : undefined;
    const action = typeof constant === 'string' ? constant : undefined;
    const component = located.pointer.startsWith('#/components/schemas/') ? located.pointer.split('/').at(-1) : undefined;
    return [{ node: located.node, pointer: located.pointer, action, label: action ?? component ?? `oneOf[${index}]` }];
  });
}

/** The named request examples (and a single `example`, if any), with their values. */
interface RequestExample {
  name: string;
  pointer: string;
  value: unknown;
  hasValue: boolean;
}

function requestExamples(document: OpenApiDocument): RequestExample[] {
  const mediaType = requestMediaType(document);
  if (mediaType === undefined) return [];
  const examples: RequestExample[] = Object.entries(mediaType.node.examples ?? {}).map(([name, example]) => {
    const located = follow(document, example, child(mediaType, 'examples', name).pointer);
    const hasValue = isExample(located.node) && 'value' in located.node;
    return { name, pointer: located.pointer, value: isExample(located.node) ? located.node.value : undefined, hasValue };
  });
  if ('example' in mediaType.node) {
    examples.push({ name: 'example', pointer: `${mediaType.pointer}/example`, value: mediaType.node.example, hasValue: true });
  }
  return examples;
}

/** The states of a subscription: the enum of the `SubscriptionStatus` schema. */
function subscriptionStates(document: OpenApiDocument): string[] | undefined {
  const status = document.components?.schemas?.SubscriptionStatus;
  return isSchemaObject(status) && isStringArray(status.enum) ? status.enum : undefined;
}

function branchActions(branches: ActionBranch[]): string[] {
  return branches.flatMap((branch) => (branch.action === undefined ? [] : [branch.action]));
}

function quoteList(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}

/* ----------------------------------------------------------------------------------------------
 * The checks: one per rule of the interface specification.
 * -------------------------------------------------------------------------------------------- */

/** Splits a server URL template such as `https://{site}/wp-json/service/v1`. */
function splitServerUrl(url: string): { scheme: string; host: string; path: string } | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(url);
  if (match === null) return undefined;
  return { scheme: (match[1] ?? '').toLowerCase(), host: match[2] ?? '', path: match[3] ?? '' };
}

export const singleEndpointCheck: ContractCheck = {
  name: 'single-endpoint',
  rule: 'Exactly one endpoint, POST https://{site}/wp-json/service/v1/action, with the version in the path.',
  rules: ['1.2', '4.1b', '4.1-r1', '9.1'],
  run(document) {
    const findings: Finding[] = [];
    const paths = Object.keys(document.paths ?? {});
    if (paths.length !== 1) {
      findings.push({
        pointer: '#/paths',
        message:
          paths.length === 0
            ? 'The document declares no path; the service has exactly one endpoint, /action under the server.'
            : `The document declares ${paths.length} paths (${quoteList(paths)}); the service has exactly one endpoint, so there must be exactly one path.`,
      });
    }
    const servers = document.servers ?? [];
    if (servers.length === 0) {
      findings.push({
        pointer: '#',
        message: `The document declares no server, so its path does not resolve to https://{site}${endpointPath}.`,
      });
    }
    const pathKey = paths.includes('/action') ? '/action' : paths[0];
    servers.forEach((server, index) => {
      const pointer = `#/servers/${index}`;
      const parts = splitServerUrl(server.url);
      if (parts === undefined) {
        findings.push({ pointer, message: `Server URL "${server.url}" is not an absolute URL; the endpoint is https://{site}${endpointPath}.` });
        return;
      }
      if (parts.scheme !== 'https') {
        findings.push({ pointer, message: `Server URL "${server.url}" uses ${parts.scheme}://; the endpoint is served over https only.` });
      }
      if (pathKey === undefined) return;
      const resolved = `${parts.path.replace(/\/+$/, '')}${pathKey}`;
      if (resolved !== endpointPath) {
        findings.push({
          pointer,
          message: `Server URL "${server.url}" with path "${pathKey}" resolves to ${resolved}, not ${endpointPath} (the version v1 is part of the path).`,
        });
      }
    });
    return findings;
  },
};

/** RFC 2606 (and RFC 6761 for `.localhost`) names that can never belong to a real shop. */
export function isReservedExampleHost(host: string): boolean {
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /(^|\.)(example|test|invalid|localhost)$/.test(name) || /(^|\.)example\.(com|net|org)$/.test(name);
}

export const siteVariableCheck: ContractCheck = {
  name: 'site-variable',
  rule: 'Each operator site has its own endpoint, so the host is the {site} variable; its default is a reserved example name (RFC 2606), as openapi/README.md records.',
  rules: ['1.3', '4.1b'],
  run(document) {
    const findings: Finding[] = [];
    (document.servers ?? []).forEach((server, index) => {
      const pointer = `#/servers/${index}`;
      const parts = splitServerUrl(server.url);
      if (parts !== undefined && parts.host !== '{site}') {
        findings.push({
          pointer,
          message: `Server URL "${server.url}" names the host "${parts.host}"; every operator's site has its own endpoint, so the host must be the {site} variable.`,
        });
      }
      const site = server.variables?.site;
      if (site === undefined) {
        findings.push({ pointer, message: `Server URL "${server.url}" declares no "site" variable for the operator's host name.` });
      } else if (!isReservedExampleHost(String(site.default))) {
        findings.push({
          pointer: `${pointer}/variables/site`,
          message: `The default of {site}, "${site.default}", is not a reserved example name (RFC 2606: *.example, *.test, *.invalid, *.localhost, example.com, example.net, example.org); a real host name would send readers' requests to somebody's shop.`,
        });
      }
    });
    return findings;
  },
};

export const postOnlyCheck: ContractCheck = {
  name: 'post-only',
  rule: 'The method is POST, the same for every action.',
  rules: ['4.1a', '4.1-r1'],
  run(document) {
    const pathItem = endpointPathItem(document);
    if (pathItem === undefined) return [];
    const methods = httpMethods.filter((method) => pathItem.node[method] !== undefined);
    const findings: Finding[] = [];
    if (!methods.includes('post')) {
      findings.push({ pointer: pathItem.pointer, message: 'The endpoint has no POST operation; every action is sent with POST.' });
    }
    for (const method of methods.filter((candidate) => candidate !== 'post')) {
      findings.push({
        pointer: `${pathItem.pointer}/${method}`,
        message: `The endpoint declares ${method.toUpperCase()} beside POST; every action goes through POST, so POST must be its only method.`,
      });
    }
    return findings;
  },
};

export const eightActionsCheck: ContractCheck = {
  name: 'eight-actions',
  rule: 'The eight action identifiers, each selected by the body field `action`; v1 may add actions, never drop one.',
  rules: ['4.1c', '1.2', '9.4'],
  run(document) {
    const operation = postOperation(document);
    if (operation === undefined) return [];
    if (operation.node.requestBody === undefined) {
      return [{ pointer: operation.pointer, message: 'The POST operation has no request body; the action and its fields travel in the JSON body.' }];
    }
    const mediaType = requestMediaType(document);
    if (mediaType === undefined) {
      return [{ pointer: `${operation.pointer}/requestBody`, message: 'The request body has no application/json content; requests are JSON.' }];
    }
    const schema = requestSchema(document);
    if (schema === undefined || !Array.isArray(schema.node.oneOf)) {
      return [
        {
          pointer: schema?.pointer ?? mediaType.pointer,
          message: 'The request body schema is not a oneOf of the actions; each of the eight actions needs its own branch.',
        },
      ];
    }
    const findings: Finding[] = [];
    const branches = actionBranches(document);
    const seenActions = new Set<string>();
    for (const branch of branches) {
      if (branch.action === undefined) {
        findings.push({ pointer: branch.pointer, message: `The ${branch.label} branch does not fix "action" with a const; every branch must name its action.` });
        continue;
      }
      if (seenActions.has(branch.action)) {
        findings.push({ pointer: branch.pointer, message: `Two branches of the request body set action to "${branch.action}".` });
      }
      seenActions.add(branch.action);
      if (!isStringArray(branch.node.required) || !branch.node.required.includes('action')) {
        findings.push({ pointer: branch.pointer, message: `The ${branch.label} branch does not list "action" under required; the action is chosen by that field.` });
      }
    }
    for (const action of specifiedActions.filter((candidate) => !seenActions.has(candidate))) {
      findings.push({ pointer: schema.pointer, message: `No branch of the request body's oneOf has action "${action}", one of the eight actions of the specification.` });
    }

    const discriminator = schema.node.discriminator;
    if (discriminator === undefined || discriminator.propertyName !== 'action' || !isRecord(discriminator.mapping)) {
      findings.push({
        pointer: schema.pointer,
        message: 'The request body needs a discriminator on "action" with an explicit mapping from each identifier to its branch.',
      });
      return findings;
    }
    const mapping = discriminator.mapping;
    for (const [action, written] of Object.entries(mapping)) {
      // A mapping may also name a schema component by its bare name.
      const target = written.startsWith('#') ? written : `#/components/schemas/${written}`;
      const branch = branches.find((candidate) => candidate.pointer === target);
      if (branch === undefined) {
        findings.push({ pointer: schema.pointer, message: `The discriminator maps "${action}" to ${target}, which is not a branch of the oneOf.` });
      } else if (branch.action !== action) {
        findings.push({ pointer: schema.pointer, message: `The discriminator maps "${action}" to the branch whose action is "${branch.action ?? 'unset'}".` });
      }
    }
    for (const action of [...new Set([...specifiedActions, ...seenActions])].filter((candidate) => !(candidate in mapping))) {
      findings.push({ pointer: schema.pointer, message: `The discriminator mapping has no entry for "${action}".` });
    }

    // Other schemas that list the identifiers (the action of a result, the allowed actions of a
    // 409) must not drift from the request body.
    const actionName = document.components?.schemas?.ActionName;
    const listedNames = isSchemaObject(actionName) ? (extensibleValues(actionName) ?? actionName.enum) : undefined;
    if (isStringArray(listedNames)) {
      const listed = listedNames;
      const unknown = listed.filter((value) => !seenActions.has(value));
      const missing = [...seenActions].filter((action) => !listed.includes(action));
      if (unknown.length > 0 || missing.length > 0) {
        findings.push({
          pointer: '#/components/schemas/ActionName',
          message: `ActionName must list exactly the actions of the request body${unknown.length > 0 ? `; not in the request body: ${quoteList(unknown)}` : ''}${missing.length > 0 ? `; missing: ${quoteList(missing)}` : ''}.`,
        });
      }
    }
    return findings;
  },
};

export const apiKeyInBodyCheck: ContractCheck = {
  name: 'api-key-in-body',
  rule: 'Every request carries api_key, a required string field of the JSON body.',
  rules: ['2.1', '5.1'],
  run(document) {
    const findings: Finding[] = [];
    for (const branch of actionBranches(document)) {
      if (!isStringArray(branch.node.required) || !branch.node.required.includes('api_key')) {
        findings.push({ pointer: branch.pointer, message: `The ${branch.label} branch does not list "api_key" under required; every request must carry the site's API key.` });
      }
      const property = follow(document, branch.node.properties?.api_key, `${branch.pointer}/properties/api_key`);
      if (!isSchemaObject(property.node)) {
        findings.push({ pointer: branch.pointer, message: `The ${branch.label} branch has no "api_key" property; the key travels in the body field api_key.` });
      } else if (property.node.type !== 'string') {
        findings.push({
          pointer: property.pointer,
          message: `"api_key" of the ${branch.label} branch has type ${JSON.stringify(property.node.type ?? 'unset')}; the key is a string.`,
        });
      }
    }
    return findings;
  },
};

/** Names of parameters that would carry a credential outside the body. */
const credentialName = /api[-_ ]?key|^key$|authori[sz]ation|^auth|token|secret|password|credential|^cookie$/i;

export const credentialInBodyOnlyCheck: ContractCheck = {
  name: 'credential-in-body-only',
  rule: 'The credential is the api_key body field and nothing else; OAuth 2.0 and dynamic client registration are not used.',
  rules: ['5.1', '5.7'],
  run(document) {
    const findings: Finding[] = [];
    for (const [name, scheme] of Object.entries(document.components?.securitySchemes ?? {})) {
      const type = isReference(scheme) ? `$ref ${scheme.$ref}` : scheme.type;
      findings.push({
        pointer: pointerFrom(['components', 'securitySchemes', name]),
        message: `Security scheme "${name}" (type ${type}) is declared; the only credential is the api_key body field, so the document declares no security scheme at all.`,
      });
    }
    if (Array.isArray(document.security) && document.security.length > 0) {
      findings.push({ pointer: '#/security', message: 'The document declares a root security requirement; the credential travels in the body, so there is none.' });
    }
    const pathItem = endpointPathItem(document);
    const operation = postOperation(document);
    if (operation !== undefined) {
      const security = operation.node.security;
      if (!Array.isArray(security) || security.length > 0) {
        findings.push({
          pointer: operation.pointer,
          message: `The POST operation must declare "security: []" (it ${security === undefined ? 'declares none' : 'names a scheme'}); the API key is part of the body, not a security scheme.`,
        });
      }
    }
    const parameterLists: Located<unknown>[] = [];
    if (pathItem !== undefined) parameterLists.push(child(pathItem, 'parameters'));
    if (operation !== undefined) parameterLists.push(child(operation, 'parameters'));
    for (const list of parameterLists) {
      if (!Array.isArray(list.node)) continue;
      list.node.forEach((parameter, index) => {
        const located = follow(document, parameter, `${list.pointer}/${index}`);
        if (isParameter(located.node) && credentialName.test(located.node.name)) {
          findings.push({
            pointer: located.pointer,
            message: `The ${located.node.in} parameter "${located.node.name}" would carry a credential outside the body; the API key travels only in the JSON field api_key.`,
          });
        }
      });
    }
    return findings;
  },
};

export const rateLimitResponseCheck: ContractCheck = {
  name: 'rate-limit-response',
  rule: 'The hosting environment may answer 429 with Retry-After, which clients honour.',
  rules: ['7.1', '8.2'],
  run(document) {
    const operation = postOperation(document);
    if (operation === undefined) return [];
    const responsesPointer = `${operation.pointer}/responses`;
    const response = follow(document, operation.node.responses?.['429'], `${responsesPointer}/429`);
    if (response.node === undefined) {
      return [{ pointer: responsesPointer, message: 'The POST operation has no 429 response; clients must learn that a throttled request carries Retry-After.' }];
    }
    if (!isResponse(response.node)) return [{ pointer: response.pointer, message: 'The 429 response is not a response object.' }];
    const headers = Object.keys(response.node.headers ?? {});
    if (!headers.some((header) => header.toLowerCase() === 'retry-after')) {
      return [{ pointer: response.pointer, message: 'The 429 response does not declare the Retry-After header, which clients must honour.' }];
    }
    return [];
  },
};

/* Validating examples: the branch schemas, resolved from the bundled document's components. */

type BranchValidator = (value: unknown) => ErrorObject[] | undefined;

/** Each branch validated by the model's one Ajv set-up (src/lib/contract/schema-validator.ts), as the document is published. */
function createBranchValidator(document: OpenApiDocument): (branch: ActionBranch) => BranchValidator {
  const validator = createContractValidator(document);
  return (branch) => {
    const checked = validator.schemaAt(branch.pointer);
    return (value) => (checked(value) ? undefined : [...(checked.errors ?? [])]);
  };
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? 'the body' : `"${error.instancePath.slice(1).replaceAll('/', '.')}"`;
      if (error.keyword === 'additionalProperties') return `${where} has the field "${String(error.params.additionalProperty)}", which this action does not accept`;
      if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
      return `${where} ${error.message ?? 'is invalid'}`;
    })
    .join('; ');
}

export const requestExamplesCheck: ContractCheck = {
  name: 'request-examples',
  rule: 'Every action has a request example, valid for its own branch and for no other.',
  rules: ['4.1c'],
  run(document) {
    const mediaType = requestMediaType(document);
    const branches = actionBranches(document);
    if (mediaType === undefined || branches.length === 0) return [];
    const findings: Finding[] = [];
    let validatorFor: (branch: ActionBranch) => BranchValidator;
    try {
      validatorFor = createBranchValidator(document);
    } catch (error) {
      return [{ pointer: '#/components/schemas', message: `The schemas cannot be compiled to validate the examples: ${(error as Error).message}` }];
    }
    const exemplified = new Set<string>();
    for (const example of requestExamples(document)) {
      const label = `Request example "${example.name}"`;
      if (!example.hasValue) {
        findings.push({ pointer: example.pointer, message: `${label} has no inline value, so it cannot be checked against its action.` });
        continue;
      }
      const action = isRecord(example.value) ? example.value.action : undefined;
      const ownBranch = branches.find((branch) => branch.action === action);
      if (typeof action !== 'string' || ownBranch === undefined) {
        findings.push({
          pointer: example.pointer,
          message: `${label} sends action ${JSON.stringify(action ?? null)}, which is not one of the actions of the request body (${branchActions(branches).join(', ')}).`,
        });
        continue;
      }
      exemplified.add(action);
      if (branchActions(branches).includes(example.name) && example.name !== action) {
        findings.push({ pointer: example.pointer, message: `${label} is named after ${example.name} but sends action "${action}".` });
      }
      let errors: ErrorObject[] | undefined;
      try {
        errors = validatorFor(ownBranch)(example.value);
      } catch (error) {
        findings.push({ pointer: ownBranch.pointer, message: `The ${ownBranch.label} branch cannot be compiled to validate ${label}: ${(error as Error).message}` });
        continue;
      }
      if (errors !== undefined) {
        findings.push({ pointer: example.pointer, message: `${label} is not valid for its own action ${action}: ${describeErrors(errors)}.` });
      }
      for (const other of branches.filter((branch) => branch !== ownBranch)) {
        if (validatorFor(other)(example.value) === undefined) {
          findings.push({
            pointer: example.pointer,
            message: `${label} is also valid for the ${other.label} branch; an example must match its own action's branch and no other.`,
          });
        }
      }
    }
    for (const action of branchActions(branches).filter((candidate) => !exemplified.has(candidate))) {
      findings.push({ pointer: `${mediaType.pointer}/examples`, message: `Action ${action} has no request example; every action needs one for its reference page and code samples.` });
    }
    return findings;
  },
};

export const placeholderApiKeyCheck: ContractCheck = {
  name: 'placeholder-api-key',
  rule: `The key is written ${apiKeyPlaceholder} in examples; nothing published looks like a real key.`,
  rules: ['5.1'],
  run(document) {
    return requestExamples(document)
      .filter((example) => isRecord(example.value) && 'api_key' in example.value && example.value.api_key !== apiKeyPlaceholder)
      .map((example) => ({
        pointer: example.pointer,
        message: `Request example "${example.name}" does not use the placeholder ${apiKeyPlaceholder} as its api_key; a published example must never look like a real key.`,
      }));
  },
};

export const transitionTableCheck: ContractCheck = {
  name: 'transition-table',
  rule: 'The transition table (x-transitions) covers the eight actions over the SubscriptionStatus states, and a final state is never left (a decision recorded in openapi/README.md).',
  rules: ['4.1c'],
  run(document) {
    const root = rootOf(document);
    const table = child(root, 'x-transitions');
    if (!isRecord(table.node)) {
      return [{ pointer: '#', message: 'The document has no x-transitions table; the states page and the 409 rules are generated from it.' }];
    }
    const states = subscriptionStates(document);
    if (states === undefined) {
      return [{ pointer: '#/components/schemas/SubscriptionStatus', message: 'There is no SubscriptionStatus schema with an enum of the states, so the transition table cannot be checked.' }];
    }
    const findings: Finding[] = [];
    const unknownStates = (pointer: string, values: unknown, what: string): void => {
      if (!isStringArray(values)) {
        findings.push({ pointer, message: `${what} must be a list of states.` });
        return;
      }
      const unknown = values.filter((value) => !states.includes(value));
      if (unknown.length > 0) {
        findings.push({ pointer, message: `${what} names ${quoteList(unknown)}, which ${unknown.length === 1 ? 'is not a state' : 'are not states'} of SubscriptionStatus (${states.join(', ')}).` });
      }
    };

    const final = child(table, 'final');
    unknownStates(final.pointer, final.node, 'The list of final states');
    const finalStates = isStringArray(final.node) ? final.node : [];

    const actions = child(table, 'actions');
    if (!isRecord(actions.node)) {
      findings.push({ pointer: table.pointer, message: 'x-transitions has no "actions" map from each action to the states it accepts.' });
      return findings;
    }
    const branches = actionBranches(document);
    for (const [action, entry] of Object.entries(actions.node)) {
      const entryPointer = pointerFrom(['x-transitions', 'actions', action]);
      if (!branchActions(branches).includes(action)) {
        findings.push({ pointer: entryPointer, message: `x-transitions lists "${action}", which is not one of the actions of the request body.` });
        continue;
      }
      const located: Located<unknown> = { node: entry, pointer: entryPointer };
      if (!isRecord(entry)) {
        findings.push({ pointer: entryPointer, message: `The entry of ${action} must say which states it accepts.` });
      } else if ('moves' in entry) {
        const toField = entry.toField;
        const branch = branches.find((candidate) => candidate.action === action);
        if (typeof toField !== 'string' || (branch !== undefined && branch.node.properties?.[toField] === undefined)) {
          findings.push({ pointer: entryPointer, message: `The entry of ${action} has moves, so "toField" must name the request field that holds the target state.` });
        }
        const moves = child(located, 'moves');
        if (!isRecord(moves.node)) {
          findings.push({ pointer: moves.pointer, message: `The moves of ${action} must map each state to the states it may move to.` });
        } else {
          unknownStates(moves.pointer, Object.keys(moves.node), `The moves of ${action}`);
          for (const [from, targets] of Object.entries(moves.node)) {
            unknownStates(child(moves, from).pointer, targets, `The moves of ${action} from ${from}`);
            if (finalStates.includes(from) && isStringArray(targets) && targets.length > 0) {
              findings.push({ pointer: child(moves, from).pointer, message: `${from} is a final state, yet ${action} moves out of it to ${targets.join(', ')}.` });
            }
          }
        }
      } else {
        const from = child(located, 'from');
        unknownStates(from.pointer, from.node, `The "from" states of ${action}`);
        unknownStates(child(located, 'to').pointer, [entry.to], `The "to" state of ${action}`);
        const exits = isStringArray(from.node) ? from.node.filter((state) => finalStates.includes(state)) : [];
        for (const state of exits) {
          findings.push({ pointer: from.pointer, message: `${state} is a final state, yet ${action} accepts it and leads out of it.` });
        }
      }
    }
    for (const action of branchActions(branches).filter((candidate) => !(candidate in (actions.node as Record<string, unknown>)))) {
      findings.push({ pointer: actions.pointer, message: `x-transitions has no entry for ${action}; every action must say which states it accepts.` });
    }
    return findings;
  },
};

/** Every schema object reachable from `start`, each once, with the pointer it was written at. */
function reachableSchemas(document: OpenApiDocument, start: Located<unknown>): Located<SchemaObject>[] {
  const found: Located<SchemaObject>[] = [];
  const seen = new Set<string>();
  const visit = (located: Located<unknown>): void => {
    const schema = follow(document, located.node, located.pointer);
    if (!isSchemaObject(schema.node) || seen.has(schema.pointer)) return;
    seen.add(schema.pointer);
    found.push({ node: schema.node, pointer: schema.pointer });
    for (const name of Object.keys(schema.node.properties ?? {})) visit(child(schema, 'properties', name));
    if ('items' in schema.node) visit(child(schema, 'items'));
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = schema.node[keyword];
      if (Array.isArray(list)) list.forEach((_, index) => visit(child(schema, keyword, index)));
    }
    if (isRecord(schema.node.additionalProperties)) visit(child(schema, 'additionalProperties'));
  };
  visit(start);
  return found;
}

/** The JSON body schemas of every response of the operation. */
function responseBodySchemas(document: OpenApiDocument, operation: Located<OpenAPIV3_1.OperationObject>): Located<unknown>[] {
  return Object.keys(operation.node.responses ?? {}).flatMap((status) => {
    const response = follow(document, operation.node.responses?.[status], `${operation.pointer}/responses/${status}`);
    if (!isResponse(response.node)) return [];
    return Object.keys(response.node.content ?? {}).map((mediaType) => child(response, 'content', mediaType, 'schema'));
  });
}

export const tolerantReaderCheck: ContractCheck = {
  name: 'tolerant-reader',
  rule: 'Inside v1 only additive changes land, new actions and new optional fields; so requests refuse fields they do not list, and responses stay open to the fields and action identifiers later releases add.',
  rules: ['9.3', '9.4'],
  run(document) {
    const findings: Finding[] = [];
    for (const branch of actionBranches(document)) {
      if (branch.node.additionalProperties !== false) {
        findings.push({
          pointer: branch.pointer,
          message: `The ${branch.label} branch does not set "additionalProperties: false"; requests stay strict, so a field the action does not know must be refused.`,
        });
      }
    }
    const operation = postOperation(document);
    if (operation === undefined) return findings;
    const actions = new Set(branchActions(actionBranches(document)));
    const reported = new Set<string>();
    for (const body of responseBodySchemas(document, operation)) {
      for (const schema of reachableSchemas(document, body)) {
        if (reported.has(schema.pointer)) continue;
        reported.add(schema.pointer);
        if (schema.node.additionalProperties === false) {
          findings.push({
            pointer: schema.pointer,
            message: 'A response schema sets "additionalProperties: false"; responses stay open, or a client generated from this document refuses the optional fields version 1 may add.',
          });
        }
        const values = schema.node.enum;
        if (isStringArray(values) && values.length > 0 && values.every((value) => actions.has(value))) {
          findings.push({
            pointer: schema.pointer,
            message: 'A response schema lists action identifiers as a closed "enum"; version 1 may add actions, so mark the list as an extensible enum ("Extensible enum." and the known values under "examples").',
          });
        }
      }
    }
    return findings;
  },
};

export const jsonOnlyRequestCheck: ContractCheck = {
  name: 'json-request-only',
  rule: 'The endpoint takes POST with a JSON body, so application/json is the request body\'s only media type.',
  rules: ['4.1a'],
  run(document) {
    const operation = postOperation(document);
    if (operation === undefined) return [];
    const body = follow(document, operation.node.requestBody, `${operation.pointer}/requestBody`);
    if (!isRequestBody(body.node)) return [];
    return Object.keys(body.node.content)
      .filter((mediaType) => mediaType !== 'application/json')
      .map((mediaType) => ({
        pointer: child(body, 'content', mediaType).pointer,
        message: `The request body accepts ${mediaType} beside application/json; the endpoint takes a JSON body only, so a client must never be told another form is accepted.`,
      }));
  },
};

/** Every contract check, in the order of the specification's sections. */
export const contractChecks: readonly ContractCheck[] = [
  singleEndpointCheck,
  siteVariableCheck,
  postOnlyCheck,
  jsonOnlyRequestCheck,
  eightActionsCheck,
  apiKeyInBodyCheck,
  credentialInBodyOnlyCheck,
  rateLimitResponseCheck,
  requestExamplesCheck,
  placeholderApiKeyCheck,
  transitionTableCheck,
  tolerantReaderCheck,
];

/** How a problem names its check: `post-only: rule 4.1a, 4.1-r1`, or the bare name. */
export function checkLabel(check: ContractCheck): string {
  return check.rules.length === 0 ? check.name : `${check.name}: ${ruleLabel(check.rules)}`;
}

/** Runs the checks over a bundled document; findings keep the pointer, not yet the file. */
export function runContractChecks(document: OpenApiDocument, checks: readonly ContractCheck[] = contractChecks): (Finding & { check: ContractCheck })[] {
  return checks.flatMap((check) => {
    try {
      return check.run(document).map((finding) => ({ ...finding, check }));
    } catch (error) {
      // A document too broken for a check to read is itself a failure of that check.
      return [{ pointer: '#', message: `The check could not read the document: ${(error as Error).message}`, check }];
    }
  });
}

/** The gate step: the checks above, each finding tied to the source file to open. */
export const contractChecksStep: GateStep = {
  name: 'contract checks',
  run(context: GateContext): GateProblem[] {
    const locate = createSourceLocator(context.projectDirectory, context.root);
    return runContractChecks(context.document).map((finding) => ({
      ...locate(finding.pointer),
      message: finding.message,
      rule: checkLabel(finding.check),
    }));
  },
};
