import type { OpenAPIV3_1 } from 'openapi-types';
import { isRecord, type OpenApiDocument, type SchemaObject } from './document.ts';
import { extensibleValues } from './extensible-enum.ts';
import { pointerFrom } from './json-pointer.ts';
import {
  child,
  follow,
  isExample,
  isMediaType,
  isOperation,
  isPathItem,
  isRequestBody,
  isSchemaObject,
  isStringArray,
  narrowed,
  type Located,
} from './located.ts';
import { jsonMediaType } from './request-body.ts';

/** One `oneOf` branch of the request body: the schema of one action. */
export interface ActionBranch extends Located<SchemaObject> {
  /** The `const` of its `action` property, if it has one. */
  action: string | undefined;
  /** A name for messages: the action, or the component the branch comes from. */
  label: string;
}

/** A named request example (or the single `example`), with its value. */
export interface LocatedExample {
  name: string;
  pointer: string;
  value: unknown;
  hasValue: boolean;
}

/**
 * The parts of the contract as they are written, each with its pointer, read once from the
 * bundled document and never refused: what the gate's rules look at, whatever is broken. The
 * strict model (`readReferenceModel`) is built for pages and needs every part to be right; this
 * is the same document read by the same helpers, up to the first part that is missing.
 */
export interface ContractParts {
  document: OpenApiDocument;
  /** The endpoint's path item: `/action` when it is there, otherwise the first path, so rules still see the operation when the path is wrong. */
  pathItem: Located<OpenAPIV3_1.PathItemObject> | undefined;
  /** The POST operation of that path. */
  operation: Located<OpenAPIV3_1.OperationObject> | undefined;
  /** The request body, references followed. */
  requestBody: Located<OpenAPIV3_1.RequestBodyObject> | undefined;
  /** The request body's JSON media type. */
  requestMediaType: Located<OpenAPIV3_1.MediaTypeObject> | undefined;
  /** The schema of the JSON request body: the `oneOf` of the actions. */
  requestSchema: Located<SchemaObject> | undefined;
  /** The branches of that `oneOf`, in order. */
  actionBranches: ActionBranch[];
  /** The actions the branches fix with a `const`, in order. */
  branchActions: string[];
  requestExamples: LocatedExample[];
  /** The states of a subscription: the enum of the `SubscriptionStatus` schema. */
  subscriptionStates: string[] | undefined;
  /** The action identifiers `ActionName` lists, as an extensible enum or a closed one. */
  listedActionNames: string[] | undefined;
}

export const subscriptionStatusPointer = '#/components/schemas/SubscriptionStatus';
export const actionNamePointer = '#/components/schemas/ActionName';

function endpointPathItem(document: OpenApiDocument): Located<OpenAPIV3_1.PathItemObject> | undefined {
  const keys = Object.keys(document.paths ?? {});
  const key = keys.includes('/action') ? '/action' : keys[0];
  if (key === undefined) return undefined;
  return narrowed(follow(document, document.paths?.[key], pointerFrom(['paths', key])), isPathItem);
}

function branchesOf(document: OpenApiDocument, schema: Located<SchemaObject> | undefined): ActionBranch[] {
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

function examplesOf(document: OpenApiDocument, mediaType: Located<OpenAPIV3_1.MediaTypeObject> | undefined): LocatedExample[] {
  if (mediaType === undefined) return [];
  const examples: LocatedExample[] = Object.entries(mediaType.node.examples ?? {}).map(([name, example]) => {
    const located = follow(document, example, child(mediaType, 'examples', name).pointer);
    const hasValue = isExample(located.node) && 'value' in located.node;
    return { name, pointer: located.pointer, value: isExample(located.node) ? located.node.value : undefined, hasValue };
  });
  if ('example' in mediaType.node) {
    examples.push({ name: 'example', pointer: `${mediaType.pointer}/example`, value: mediaType.node.example, hasValue: true });
  }
  return examples;
}

/** Reads the parts of the contract once; see `ContractParts`. */
export function readContractParts(document: OpenApiDocument): ContractParts {
  const pathItem = endpointPathItem(document);
  const operation = pathItem === undefined ? undefined : narrowed(child(pathItem, 'post'), isOperation);
  const requestBody = operation === undefined ? undefined : narrowed(follow(document, operation.node.requestBody, `${operation.pointer}/requestBody`), isRequestBody);
  const requestMediaType = requestBody === undefined ? undefined : narrowed(child(requestBody, 'content', jsonMediaType), isMediaType);
  const requestSchema =
    requestMediaType === undefined ? undefined : narrowed(follow(document, requestMediaType.node.schema, `${requestMediaType.pointer}/schema`), isSchemaObject);
  const actionBranches = branchesOf(document, requestSchema);
  const status = document.components?.schemas?.SubscriptionStatus;
  const actionName = document.components?.schemas?.ActionName;
  const listedNames = isSchemaObject(actionName) ? (extensibleValues(actionName) ?? actionName.enum) : undefined;
  return {
    document,
    pathItem,
    operation,
    requestBody,
    requestMediaType,
    requestSchema,
    actionBranches,
    branchActions: actionBranches.flatMap((branch) => (branch.action === undefined ? [] : [branch.action])),
    requestExamples: examplesOf(document, requestMediaType),
    subscriptionStates: isSchemaObject(status) && isStringArray(status.enum) ? status.enum : undefined,
    listedActionNames: isStringArray(listedNames) ? listedNames : undefined,
  };
}

/** Every schema object reachable from `start`, each once, with the pointer it was written at. */
export function reachableSchemas(document: OpenApiDocument, start: Located<unknown>): Located<SchemaObject>[] {
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

/** The JSON body schemas of every response of the operation, each where it is written. */
export function responseBodySchemas(parts: ContractParts): Located<unknown>[] {
  const operation = parts.operation;
  if (operation === undefined) return [];
  return Object.keys(operation.node.responses ?? {}).flatMap((status) => {
    const response = follow(parts.document, operation.node.responses?.[status], `${operation.pointer}/responses/${status}`);
    if (!isRecord(response.node) || !isRecord(response.node.content)) return [];
    return Object.keys(response.node.content).map((mediaType) => child(response, 'content', mediaType, 'schema'));
  });
}
