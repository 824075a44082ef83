import type { OpenAPIV3_1 } from 'openapi-types';
import { isRecord, type OpenApiDocument } from '../contract/document.ts';
import { mediaTypesOf, operationsOf, propertiesOf, requestVariants, schemaOf, typeLabel, type Deprecation } from './comparison.ts';

function isDeprecated(document: OpenApiDocument, node: unknown): boolean {
  // OpenAPI 3.1 allows `deprecated` beside a `$ref`, so the property's own node counts first.
  if (isRecord(node) && node.deprecated === true) return true;
  return schemaOf(document, node)?.deprecated === true;
}

/** A field or an action of the contract, as far as deprecation is concerned. */
export interface Member {
  /** Identifies the same field or action across versions. */
  key: string;
  /** "Field `note` for `pause_subscription`" or "Action `trial_end`". */
  subject: string;
  deprecated: boolean;
  action?: string;
}

/** Every action and every field (nested ones too) of every request variant and response. */
export function membersOf(document: OpenApiDocument): Member[] {
  const members: Member[] = [];
  const visit = (schema: OpenAPIV3_1.SchemaObject | undefined, keyPrefix: string, phrase: string, prefix: string, depth: number, action?: string): void => {
    if (depth > 6) return;
    for (const [name, node] of Object.entries(propertiesOf(schema))) {
      const field = `${prefix}${name}`;
      members.push({
        key: `${keyPrefix}:${field}`,
        subject: `Field \`${field}\` ${phrase}`,
        deprecated: isDeprecated(document, node),
        ...(action === undefined ? {} : { action }),
      });
      const resolved = schemaOf(document, node);
      if (resolved !== undefined && typeLabel(resolved) === 'object') visit(resolved, keyPrefix, phrase, `${field}.`, depth + 1, action);
    }
  };
  for (const { label, operation } of operationsOf(document).values()) {
    for (const media of Object.values(mediaTypesOf(document, operation.requestBody))) {
      for (const [identifier, branch] of requestVariants(document, media)) {
        if (identifier !== '') {
          members.push({ key: `action:${identifier}`, subject: `Action \`${identifier}\``, deprecated: branch.deprecated === true, action: identifier });
        }
        const phrase = identifier === '' ? `in the \`${label}\` request` : `for \`${identifier}\``;
        visit(branch, `request:${label}:${identifier}`, phrase, '', 0, identifier === '' ? undefined : identifier);
      }
    }
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      for (const media of Object.values(mediaTypesOf(document, response))) {
        visit(schemaOf(document, media.schema), `response:${label}:${status}`, `in the \`${status}\` response`, '', 0);
      }
    }
  }
  // A field reached through several media types is one member.
  return members.filter((member, index) => members.findIndex((other) => other.key === member.key) === index);
}

/** Every field and action marked `deprecated: true`, keyed so that the same one matches across versions. */
export function deprecationsOf(document: OpenApiDocument): Deprecation[] {
  return membersOf(document)
    .filter((member) => member.deprecated)
    .map((member) => ({
      key: member.key,
      sentence: `${member.subject} is deprecated.`,
      ...(member.action === undefined ? {} : { action: member.action }),
    }));
}

