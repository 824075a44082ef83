import type { OpenApiDocument } from './document.ts';
import { isRecord } from './document.ts';
import type { Endpoint } from './endpoint.ts';
import type { ResolvedSchema } from './schemas.ts';
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

/**
 * Reads the request body: a `oneOf` of one schema per action, with a discriminator whose
 * explicit mapping names each action. Every schema must be reachable through the mapping and
 * every mapping entry must be one of the `oneOf`, or an action would be documented twice or not
 * at all.
 */
export function readRequestBody(document: OpenApiDocument, endpoint: Endpoint): RequestBody {
  const body = resolveObject(document, endpoint.operation.requestBody, childPointer(endpoint.pointer, 'requestBody'));
  const content = body.value.content;
  const media = isRecord(content) ? content[jsonMediaType] : undefined;
  const mediaPointer = childPointer(body.pointer, 'content', jsonMediaType);
  if (!isRecord(media)) throw contractError(mediaPointer, 'the request body has no JSON content');

  const union = resolveSchema(document, media.schema, childPointer(mediaPointer, 'schema'));
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
      throw contractError(
        childPointer(union.pointer, 'discriminator', 'mapping', identifier),
        `maps to ${target}, which ${identifierOf.get(target)} already maps to`,
      );
    }
    identifierOf.set(target, identifier);
  }

  const variants = oneOf.map((member, index): ActionVariant => {
    const memberPointer = childPointer(union.pointer, 'oneOf', index);
    const ref = isRecord(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
    const identifier = ref === undefined ? undefined : identifierOf.get(ref);
    if (identifier === undefined) {
      throw contractError(memberPointer, 'is not named by the discriminator mapping, so no action identifier selects it');
    }
    identifierOf.delete(ref ?? '');
    const schema = resolveSchema(document, member, memberPointer);
    assertSelects(document, schema, selector, identifier);
    return { identifier, schema };
  });
  for (const [target, identifier] of identifierOf) {
    throw contractError(
      childPointer(union.pointer, 'discriminator', 'mapping', identifier),
      `maps to ${target}, which is not one of the request body's \`oneOf\``,
    );
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
