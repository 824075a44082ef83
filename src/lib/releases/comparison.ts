import type { OpenAPIV3_1 } from 'openapi-types';
import { dereference, isRecord, type OpenApiDocument } from '../contract/document.ts';
import { extensibleValues } from '../contract/extensible-enum.ts';
import type { DocumentUses } from './document-uses.ts';
import { mediaTypesOf, operationsOf } from './operations.ts';

/**
 * The terms the changelog tells changes in: the operations, the request variants, the schemas
 * with their references followed. Redocly's diff (./redocly-diff.ts) finds the changes; whether
 * one breaks v1 is for the gate's compatibility step to judge.
 */

/** How a change reads in the changelog. */
export type ChangeCategory = 'added' | 'deprecated' | 'changed' | 'removed';

/**
 * The part of `info.version` a change needs: `major` breaks a client, `minor` adds to the
 * contract or deprecates part of it, `patch` neither (a dropped example, a lifted deprecation).
 */
export type ChangeImpact = 'major' | 'minor' | 'patch';

export type ChangeKind =
  | 'operation-added'
  | 'operation-removed'
  | 'action-added'
  | 'action-removed'
  | 'field-added'
  | 'field-removed'
  | 'field-type-changed'
  | 'field-required-changed'
  | 'field-values-added'
  | 'field-values-removed'
  | 'field-values-opened'
  | 'object-opened'
  | 'media-type-added'
  | 'media-type-removed'
  | 'header-added'
  | 'header-removed'
  | 'header-required-changed'
  | 'other-change'
  | 'response-added'
  | 'response-removed'
  | 'example-added'
  | 'example-removed'
  | 'deprecated'
  | 'undeprecated'
  | 'transition-widened'
  | 'transition-narrowed';

/** One change between two versions of the contract, described the way a client developer reads it. */
export interface ContractChange {
  kind: ChangeKind;
  category: ChangeCategory;
  /** One sentence; identifiers are in backticks. */
  sentence: string;
  /** The action concerned, when there is one. */
  action?: string;
  /** Where it is in the bundled document: the revision's for what exists, the base's for what was removed. */
  pointer?: string;
}

/** A field or action marked `deprecated: true`. */
export interface Deprecation {
  /** Identifies the same deprecation across versions. */
  key: string;
  sentence: string;
  action?: string;
}

type SchemaNode = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/** The schema a node stands for, with `$ref`s followed. */
export function schemaOf(document: OpenApiDocument, node: unknown): OpenAPIV3_1.SchemaObject | undefined {
  if (!isRecord(node)) return undefined;
  const resolved: unknown = dereference(document, node as SchemaNode);
  return isRecord(resolved) ? (resolved as OpenAPIV3_1.SchemaObject) : undefined;
}

/**
 * The request variants of a media type: one per action when the schema picks its branch with a
 * discriminator mapping (this contract's `action` field), otherwise the schema itself under `''`.
 */
export function requestVariants(document: OpenApiDocument, media: OpenAPIV3_1.MediaTypeObject): Map<string, OpenAPIV3_1.SchemaObject> {
  const variants = new Map<string, OpenAPIV3_1.SchemaObject>();
  const schema = schemaOf(document, media.schema);
  if (schema === undefined) return variants;
  const mapping = schema.discriminator?.mapping;
  if (isRecord(mapping)) {
    for (const [identifier, target] of Object.entries(mapping)) {
      if (typeof target !== 'string') continue;
      // A mapping value is a reference, or the bare name of a schema under components.
      const $ref = target.startsWith('#') ? target : `#/components/schemas/${target}`;
      const branch = schemaOf(document, { $ref });
      if (branch !== undefined) variants.set(identifier, branch);
    }
    return variants;
  }
  variants.set('', schema);
  return variants;
}

interface ActionSummary {
  identifier: string;
  title?: string;
  deprecated: boolean;
}

/** The actions of the contract: the discriminator values of every request body, in order. */
export function actionsOf(document: OpenApiDocument): ActionSummary[] {
  const actions: ActionSummary[] = [];
  for (const { operation } of operationsOf(document).values()) {
    for (const media of Object.values(mediaTypesOf(document, operation.requestBody))) {
      for (const [identifier, branch] of requestVariants(document, media)) {
        if (identifier === '' || actions.some((action) => action.identifier === identifier)) continue;
        actions.push({
          identifier,
          ...(typeof branch.title === 'string' ? { title: branch.title } : {}),
          deprecated: branch.deprecated === true,
        });
      }
    }
  }
  return actions;
}

export function actionIdentifiers(document: OpenApiDocument): Set<string> {
  return new Set(actionsOf(document).map((action) => action.identifier));
}

export function typeLabel(schema: OpenAPIV3_1.SchemaObject): string | undefined {
  const type: unknown = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return [...type].map(String).sort().join(' or ');
  return undefined;
}

/** The values a schema lists, and whether the list is closed or open to values added later. */
export interface ListedValues {
  /** Each value as JSON, so values of any type compare. */
  values: string[];
  /** An extensible enum: a value not listed yet may still come. */
  extensible: boolean;
}

/** The values a schema lists: `enum`, `const`, a `oneOf` of `const`s, or an extensible enum's known values. */
export function listedValues(schema: OpenAPIV3_1.SchemaObject): ListedValues | undefined {
  if (Array.isArray(schema.enum)) return { values: schema.enum.map((value) => JSON.stringify(value)), extensible: false };
  if ('const' in schema) return { values: [JSON.stringify(schema.const)], extensible: false };
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((branch) => isRecord(branch) && 'const' in branch)) {
    return { values: branches.map((branch) => JSON.stringify((branch as { const: unknown }).const)), extensible: false };
  }
  const known = extensibleValues(schema);
  return known === undefined ? undefined : { values: known.map((value) => JSON.stringify(value)), extensible: true };
}

export function list(values: readonly string[]): string {
  return values.map((value) => `\`${value}\``).join(', ');
}
export interface Comparison {
  base: OpenApiDocument;
  revision: OpenApiDocument;
  /** Actions that exist only in the revision: their own examples and enum values are part of them. */
  newActions: Set<string>;
  removedActions: Set<string>;
  revisionActions: Set<string>;
  /** Where each node of either version is used, walked once for every reader of the comparison. */
  uses: DocumentUses;
  changes: ContractChange[];
}

export function add(comparison: Comparison, change: ContractChange): void {
  comparison.changes.push(change);
}

