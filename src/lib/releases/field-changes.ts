import type { OpenAPIV3_1 } from 'openapi-types';
import { dereference, isRecord, type OpenApiDocument } from '../contract/document.ts';
import {
  add,
  list,
  listedValues,
  propertiesOf,
  requiredOf,
  schemaOf,
  typeLabel,
  type Comparison,
  type FieldOwner,
} from './comparison.ts';

/**
 * True when an enum-like list (values before and after) gained only identifiers of new actions
 * and holds nothing but action identifiers. Such a list stays compatible even in a response:
 * the `200` response echoes the action the client sent, and new actions are what v1 promises to
 * add, so `allowed_actions` of a `409` may name them. A new subscription status is not this case.
 */
export function gainedOnlyNewActions(
  before: readonly unknown[],
  after: readonly unknown[],
  revisionActions: ReadonlySet<string>,
  newActions: ReadonlySet<string>,
): boolean {
  const added = after.filter((value) => !before.includes(value));
  const isIdentifier = (set: ReadonlySet<string>) => (value: unknown) => typeof value === 'string' && set.has(value);
  return added.length > 0 && after.every(isIdentifier(revisionActions)) && added.every(isIdentifier(newActions));
}

/**
 * The values a field (or the items of a list) may take. A request that accepts more breaks
 * nobody; a response that names a value its readers do not know may break them, unless the list
 * is an extensible enum, which promised that from the start. Turning a closed list of a response
 * into an extensible one that keeps every value is the tolerant-reader promise made explicit.
 */
function compareValues(
  comparison: Comparison,
  owner: FieldOwner,
  subject: string,
  baseSchema: OpenAPIV3_1.SchemaObject,
  revisionSchema: OpenAPIV3_1.SchemaObject,
): void {
  const before = listedValues(baseSchema);
  const after = listedValues(revisionSchema);
  if (before === undefined || after === undefined) return;
  const request = owner.direction === 'request';
  const action = owner.action === undefined ? {} : { action: owner.action };
  const shown = (values: string[]): string => list(values.map((value) => String(JSON.parse(value))));
  const added = after.values.filter((value) => !before.values.includes(value));
  const removed = before.values.filter((value) => !after.values.includes(value));
  const parsed = (values: string[]): unknown[] => values.map((value) => JSON.parse(value));
  // The new action's own entry tells of its identifier joining a list of actions.
  const onlyNewActions = gainedOnlyNewActions(parsed(before.values), parsed(after.values), comparison.revisionActions, comparison.newActions);
  if (added.length > 0 && !onlyNewActions) {
    add(comparison, {
      kind: 'field-values-added',
      category: 'added',
      // A client reading a closed list of a response may not know the new value; a request only accepts more.
      sentence: `${subject} ${owner.phrase} takes new values: ${shown(added)}.`,
      ...action,
    });
  }
  if (removed.length > 0) {
    add(comparison, {
      kind: 'field-values-removed',
      category: 'removed',
      sentence: `${subject} ${owner.phrase} no longer takes the values ${shown(removed)}.`,
      ...action,
    });
  }
  if (!before.extensible && after.extensible && !request) {
    add(comparison, {
      kind: 'field-values-opened',
      category: 'changed',
      sentence: `${subject} ${owner.phrase} is now an extensible enum: a later release may send a value it does not list yet, which a client accepts.`,
      ...action,
    });
  }
}

/**
 * Whether an object may carry members it does not list. A response that drops
 * `additionalProperties: false` opens itself to the fields later releases add, which clients
 * ignore; a request that drops it would stop refusing unknown fields, and requests stay strict.
 */
export function compareOpenness(
  comparison: Comparison,
  owner: FieldOwner,
  subject: string,
  baseSchema: OpenAPIV3_1.SchemaObject | undefined,
  revisionSchema: OpenAPIV3_1.SchemaObject | undefined,
): void {
  if (baseSchema?.additionalProperties !== false || revisionSchema === undefined) return;
  if (revisionSchema.additionalProperties !== undefined && revisionSchema.additionalProperties !== true) return;
  const request = owner.direction === 'request';
  add(comparison, {
    kind: 'object-opened',
    category: 'changed',
    sentence: request
      ? `${subject} no longer refuses fields it does not list.`
      : `${subject} may now carry fields it does not list, which a client ignores.`,
    ...(owner.action === undefined ? {} : { action: owner.action }),
  });
}

export function compareFields(
  comparison: Comparison,
  owner: FieldOwner,
  baseSchema: OpenAPIV3_1.SchemaObject | undefined,
  revisionSchema: OpenAPIV3_1.SchemaObject | undefined,
  prefix: string,
  depth: number,
): void {
  if (depth > 6) return;
  const { base, revision } = comparison;
  const baseProperties = propertiesOf(baseSchema);
  const revisionProperties = propertiesOf(revisionSchema);
  const baseRequired = requiredOf(baseSchema);
  const revisionRequired = requiredOf(revisionSchema);
  const request = owner.direction === 'request';
  const action = owner.action === undefined ? {} : { action: owner.action };

  for (const [name, revisionNode] of Object.entries(revisionProperties)) {
    const field = `${prefix}${name}`;
    if (!(name in baseProperties)) {
      const required = revisionRequired.has(name);
      add(comparison, {
        kind: 'field-added',
        category: 'added',
        sentence: `New ${required ? 'required' : 'optional'} field \`${field}\` ${owner.phrase}.`,
        ...action,
      });
      continue;
    }
    const baseField = schemaOf(base, baseProperties[name]);
    const revisionField = schemaOf(revision, revisionNode);
    if (baseField === undefined || revisionField === undefined) continue;

    const baseType = typeLabel(baseField);
    const revisionType = typeLabel(revisionField);
    if (baseType !== revisionType) {
      add(comparison, {
        kind: 'field-type-changed',
        category: 'changed',
        sentence: `Field \`${field}\` ${owner.phrase} changed its type from ${baseType ?? 'any'} to ${revisionType ?? 'any'}.`,
        ...action,
      });
    }

    const wasRequired = baseRequired.has(name);
    const isRequired = revisionRequired.has(name);
    if (wasRequired !== isRequired) {
      // A request field that becomes required, or a response field that may go missing, breaks clients.
      const breaks = request ? isRequired : wasRequired;
      add(comparison, {
        kind: 'field-required-changed',
        category: 'changed',
        sentence: `Field \`${field}\` ${owner.phrase} is now ${isRequired ? 'required' : 'optional'}.`,
        ...action,
      });
    }

    compareValues(comparison, owner, `Field \`${field}\``, baseField, revisionField);
    if (baseType === 'array' && revisionType === 'array') {
      const baseItems = schemaOf(base, 'items' in baseField ? baseField.items : undefined);
      const revisionItems = schemaOf(revision, 'items' in revisionField ? revisionField.items : undefined);
      if (baseItems !== undefined && revisionItems !== undefined) {
        compareValues(comparison, owner, `Each item of field \`${field}\``, baseItems, revisionItems);
      }
    }
    if (baseType === 'object' && revisionType === 'object') {
      compareOpenness(comparison, owner, `Field \`${field}\` ${owner.phrase}`, baseField, revisionField);
    }

    if (baseType === 'object' && revisionType === 'object') {
      compareFields(comparison, owner, baseField, revisionField, `${field}.`, depth + 1);
    }
  }

  for (const name of Object.keys(baseProperties)) {
    if (name in revisionProperties) continue;
    add(comparison, {
      kind: 'field-removed',
      category: 'removed',
      sentence: `Field \`${prefix}${name}\` ${owner.phrase} was removed.`,
      ...action,
    });
  }
}

export function compareExamples(
  comparison: Comparison,
  baseMedia: OpenAPIV3_1.MediaTypeObject,
  revisionMedia: OpenAPIV3_1.MediaTypeObject,
  phrase: string,
): void {
  const baseNames = Object.keys(baseMedia.examples ?? {});
  const revisionNames = Object.keys(revisionMedia.examples ?? {});
  for (const name of revisionNames) {
    if (baseNames.includes(name) || comparison.newActions.has(name)) continue;
    add(comparison, { kind: 'example-added', category: 'added', sentence: `New example \`${name}\` ${phrase}.` });
  }
  for (const name of baseNames) {
    if (revisionNames.includes(name) || comparison.removedActions.has(name)) continue;
    add(comparison, { kind: 'example-removed', category: 'removed', sentence: `Example \`${name}\` ${phrase} was removed.` });
  }
}

function headersOf(document: OpenApiDocument, response: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject): Record<string, OpenAPIV3_1.HeaderObject> {
  const resolved = dereference<OpenAPIV3_1.ResponseObject>(document, response);
  if (!isRecord(resolved.headers)) return {};
  return Object.fromEntries(
    Object.entries(resolved.headers).map(([name, header]) => [name, dereference<OpenAPIV3_1.HeaderObject>(document, header)]),
  );
}

/**
 * Whether a response header is marked required. Redocly rates the change either way `patch`,
 * and so does this: a header set by the hosting environment, such as `Retry-After`, is one the
 * document can describe but not promise, and saying so corrects the description only.
 */
export function compareHeaders(
  comparison: Comparison,
  status: string,
  baseResponse: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject,
  revisionResponse: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject,
): void {
  const before = headersOf(comparison.base, baseResponse);
  for (const [name, header] of Object.entries(headersOf(comparison.revision, revisionResponse))) {
    const previous = before[name];
    if (previous === undefined || (previous.required === true) === (header.required === true)) continue;
    add(comparison, {
      kind: 'header-required-changed',
      category: 'changed',
      sentence: `Header \`${name}\` of the \`${status}\` response is ${header.required === true ? 'now marked required' : 'no longer marked required'}.`,
    });
  }
}

