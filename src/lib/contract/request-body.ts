import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument, SchemaObject } from './document.ts';
import { isRecord } from './document.ts';
import type { Endpoint } from './model.ts';
import { child, follow, isExample, isMediaType, isRequestBody, isSchemaObject, narrowed, type Located } from './located.ts';
import type { ResolvedSchema } from './schemas.ts';
import { attempt, throwAtFirst, type ReportProblem } from './problems.ts';
import { childPointer, contractError, requiredString, resolveObject, resolveSchema } from './schemas.ts';

/** One schema of the request body's `oneOf`, named by the discriminator value that selects it. */
export interface ActionVariant {
  identifier: string;
  schema: ResolvedSchema;
}

export interface RequestBody {
  /** Markdown from the request body object. */
  description: string;
  /** The field that selects the action (the discriminator's `propertyName`). */
  selector: string;
  /** In the order of the `oneOf`, which is the order the pages list the actions in. */
  variants: ActionVariant[];
  /** The named examples of the JSON body, still unresolved; keyed by action identifier. */
  examples: Record<string, unknown>;
  /** JSON pointer of the JSON media type object. */
  pointer: string;
}

export const jsonMediaType = 'application/json';

/** One `oneOf` branch of the request body as written: the schema of one action. */
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
 * The request body's parts as they are written, each with its pointer, up to the first that is
 * missing: what `readRequestBody` reads and checks, and what the gate's rules look at whatever is
 * broken.
 */
export interface RequestParts {
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

/** Finds the request body's parts below an operation; see `RequestParts`. Never refuses. */
export function locateRequest(document: OpenApiDocument, operation: Located<OpenAPIV3_1.OperationObject> | undefined): RequestParts {
  const requestBody = operation === undefined ? undefined : narrowed(follow(document, operation.node.requestBody, `${operation.pointer}/requestBody`), isRequestBody);
  const requestMediaType = requestBody === undefined ? undefined : narrowed(child(requestBody, 'content', jsonMediaType), isMediaType);
  const requestSchema =
    requestMediaType === undefined ? undefined : narrowed(follow(document, requestMediaType.node.schema, `${requestMediaType.pointer}/schema`), isSchemaObject);
  const actionBranches = branchesOf(document, requestSchema);
  return {
    requestBody,
    requestMediaType,
    requestSchema,
    actionBranches,
    branchActions: actionBranches.flatMap((branch) => (branch.action === undefined ? [] : [branch.action])),
    requestExamples: examplesOf(document, requestMediaType),
  };
}

/**
 * Reads the request body: a `oneOf` of one schema per action, with a discriminator whose
 * explicit mapping names each action. Every schema must be reachable through the mapping and
 * every mapping entry must be one of the `oneOf`, or an action would be documented twice or not
 * at all. A problem of one action's schema or mapping entry is reported and the others are read
 * on; without a JSON `oneOf` and its mapping there is nothing to read, and that is thrown.
 */
export function readRequestBody(document: OpenApiDocument, endpoint: Endpoint, report: ReportProblem = throwAtFirst): RequestBody {
  const body = resolveObject(document, endpoint.operation.requestBody, childPointer(endpoint.pointer, 'requestBody'));
  const mediaPointer = childPointer(body.pointer, 'content', jsonMediaType);
  const located = locateRequest(document, { node: endpoint.operation, pointer: endpoint.pointer }).requestMediaType;
  if (located === undefined) throw contractError(mediaPointer, 'the request body has no JSON content');
  const media = located.node;

  const union = resolveSchema(document, media.schema, childPointer(located.pointer, 'schema'));
  const { oneOf, discriminator } = union.schema;
  if (!Array.isArray(oneOf)) throw contractError(union.pointer, 'the request body is expected to be a `oneOf` of actions');
  if (!isRecord(discriminator) || !isRecord(discriminator.mapping)) {
    throw contractError(union.pointer, 'the `oneOf` needs a `discriminator` with an explicit `mapping`');
  }
  const selector = requiredString(discriminator.propertyName, childPointer(union.pointer, 'discriminator'), '`propertyName`');

  const identifierOf = new Map<string, string>();
  for (const [identifier, value] of Object.entries(discriminator.mapping)) {
    // OpenAPI lets a mapping value be a schema's bare name as well as a reference to it.
    const target = /^[\w.-]+$/.test(value) ? `#/components/schemas/${value}` : value;
    if (identifierOf.has(target)) {
      report({
        location: childPointer(union.pointer, 'discriminator', 'mapping', identifier),
        message: `maps to ${target}, which ${identifierOf.get(target)} already maps to`,
      });
      continue;
    }
    identifierOf.set(target, identifier);
  }

  const variants = oneOf.flatMap((member, index): ActionVariant[] => {
    const memberPointer = childPointer(union.pointer, 'oneOf', index);
    const ref = isRecord(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
    const identifier = ref === undefined ? undefined : identifierOf.get(ref);
    if (identifier === undefined) {
      report({ location: memberPointer, message: 'is not named by the discriminator mapping, so no action identifier selects it' });
      return [];
    }
    identifierOf.delete(ref ?? '');
    const schema = attempt(report, () => resolveSchema(document, member, memberPointer));
    if (schema === undefined) return [];
    attempt(report, () => assertSelects(document, schema, selector, identifier));
    return [{ identifier, schema }];
  });
  for (const [target, identifier] of identifierOf) {
    report({
      location: childPointer(union.pointer, 'discriminator', 'mapping', identifier),
      message: `maps to ${target}, which is not one of the request body's \`oneOf\``,
    });
  }

  return {
    description: typeof body.value.description === 'string' ? body.value.description : '',
    selector,
    variants,
    examples: isRecord(media.examples) ? media.examples : {},
    pointer: mediaPointer,
  };
}

/** An action's schema must pin the selector field to its own identifier, or the mapping lies. */
function assertSelects(document: OpenApiDocument, variant: ResolvedSchema, selector: string, identifier: string): void {
  const property = variant.schema.properties?.[selector];
  const propertyPointer = childPointer(variant.pointer, 'properties', selector);
  if (property === undefined) throw contractError(variant.pointer, `has no \`${selector}\` property to select it`);
  const { schema } = resolveSchema(document, property, propertyPointer);
  const pinned: unknown = schema.const ?? (schema.enum?.length === 1 ? schema.enum[0] : undefined);
  if (pinned !== identifier) {
    throw contractError(propertyPointer, `is expected to be \`const: ${identifier}\`, the identifier that maps to this schema`);
  }
  if (!variant.schema.required?.includes(selector)) {
    throw contractError(variant.pointer, `\`${selector}\` is expected to be required`);
  }
}
