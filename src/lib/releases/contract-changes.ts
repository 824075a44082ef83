import type { OpenAPIV3_1 } from 'openapi-types';
import { dereference, isRecord, isReference, type OpenApiDocument } from '../contract/document.ts';
import { encodePointerSegment } from '../contract/json-pointer.ts';
import { extensibleValues } from '../contract/extensible-enum.ts';
import { httpMethods } from '../http/methods.ts';

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
  | 'header-required-changed'
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
  impact: ChangeImpact;
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

type Direction = 'request' | 'response';
type SchemaNode = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

interface Operation {
  /** `POST /action` */
  label: string;
  /** `#/paths/~1action/post` */
  pointer: string;
  operation: OpenAPIV3_1.OperationObject;
}

function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [pathName, rawItem] of Object.entries(document.paths ?? {})) {
    const item = dereference<OpenAPIV3_1.PathItemObject | undefined>(document, rawItem);
    if (!isRecord(item)) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const label = `${method.toUpperCase()} ${pathName}`;
      operations.set(label, { label, pointer: `#/paths/${encodePointerSegment(pathName)}/${method}`, operation });
    }
  }
  return operations;
}

function mediaTypesOf(
  document: OpenApiDocument,
  holder: OpenAPIV3_1.RequestBodyObject | OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject | undefined,
): Record<string, OpenAPIV3_1.MediaTypeObject> {
  if (holder === undefined) return {};
  const resolved = dereference<OpenAPIV3_1.RequestBodyObject | OpenAPIV3_1.ResponseObject>(document, holder);
  return isRecord(resolved.content) ? resolved.content : {};
}

/** The schema a node stands for, with `$ref`s followed. */
function schemaOf(document: OpenApiDocument, node: unknown): OpenAPIV3_1.SchemaObject | undefined {
  if (!isRecord(node)) return undefined;
  const resolved: unknown = dereference(document, node as SchemaNode);
  return isRecord(resolved) ? (resolved as OpenAPIV3_1.SchemaObject) : undefined;
}

/**
 * The request variants of a media type: one per action when the schema picks its branch with a
 * discriminator mapping (this contract's `action` field), otherwise the schema itself under `''`.
 */
function requestVariants(document: OpenApiDocument, media: OpenAPIV3_1.MediaTypeObject): Map<string, OpenAPIV3_1.SchemaObject> {
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

function typeLabel(schema: OpenAPIV3_1.SchemaObject): string | undefined {
  const type: unknown = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return [...type].map(String).sort().join(' or ');
  return undefined;
}

/** The values a schema lists, and whether the list is closed or open to values added later. */
interface ListedValues {
  /** Each value as JSON, so values of any type compare. */
  values: string[];
  /** An extensible enum: a value not listed yet may still come. */
  extensible: boolean;
}

/** The values a schema lists: `enum`, `const`, a `oneOf` of `const`s, or an extensible enum's known values. */
function listedValues(schema: OpenAPIV3_1.SchemaObject): ListedValues | undefined {
  if (Array.isArray(schema.enum)) return { values: schema.enum.map((value) => JSON.stringify(value)), extensible: false };
  if ('const' in schema) return { values: [JSON.stringify(schema.const)], extensible: false };
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((branch) => isRecord(branch) && 'const' in branch)) {
    return { values: branches.map((branch) => JSON.stringify((branch as { const: unknown }).const)), extensible: false };
  }
  const known = extensibleValues(schema);
  return known === undefined ? undefined : { values: known.map((value) => JSON.stringify(value)), extensible: true };
}

function isDeprecated(document: OpenApiDocument, node: unknown): boolean {
  // OpenAPI 3.1 allows `deprecated` beside a `$ref`, so the property's own node counts first.
  if (isRecord(node) && node.deprecated === true) return true;
  return schemaOf(document, node)?.deprecated === true;
}

function propertiesOf(schema: OpenAPIV3_1.SchemaObject | undefined): Record<string, unknown> {
  return schema !== undefined && isRecord(schema.properties) ? schema.properties : {};
}

function requiredOf(schema: OpenAPIV3_1.SchemaObject | undefined): Set<string> {
  return new Set(schema !== undefined && Array.isArray(schema.required) ? schema.required : []);
}

function list(values: readonly string[]): string {
  return values.map((value) => `\`${value}\``).join(', ');
}

/** Where a field lives, for sentences: "for `pause_subscription`", "in the `200` response". */
interface FieldOwner {
  direction: Direction;
  /** "for `pause_subscription`" or "in the `200` response". */
  phrase: string;
  action?: string;
}

interface Comparison {
  base: OpenApiDocument;
  revision: OpenApiDocument;
  /** Actions that exist only in the revision: their own examples and enum values are part of them. */
  newActions: Set<string>;
  removedActions: Set<string>;
  revisionActions: Set<string>;
  changes: ContractChange[];
}

function add(comparison: Comparison, change: ContractChange): void {
  comparison.changes.push(change);
}

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
      impact: request || after.extensible ? 'minor' : 'major',
      sentence: `${subject} ${owner.phrase} takes new values: ${shown(added)}.`,
      ...action,
    });
  }
  if (removed.length > 0) {
    add(comparison, {
      kind: 'field-values-removed',
      category: 'removed',
      impact: request ? 'major' : 'patch',
      sentence: `${subject} ${owner.phrase} no longer takes the values ${shown(removed)}.`,
      ...action,
    });
  }
  if (!before.extensible && after.extensible && !request) {
    add(comparison, {
      kind: 'field-values-opened',
      category: 'changed',
      impact: 'minor',
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
function compareOpenness(
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
    impact: request ? 'major' : 'minor',
    sentence: request
      ? `${subject} no longer refuses fields it does not list.`
      : `${subject} may now carry fields it does not list, which a client ignores.`,
    ...(owner.action === undefined ? {} : { action: owner.action }),
  });
}

function compareFields(
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
        impact: request && required ? 'major' : 'minor',
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
        impact: 'major',
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
        impact: breaks ? 'major' : 'minor',
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
      impact: 'major',
      sentence: `Field \`${prefix}${name}\` ${owner.phrase} was removed.`,
      ...action,
    });
  }
}

function compareExamples(
  comparison: Comparison,
  baseMedia: OpenAPIV3_1.MediaTypeObject,
  revisionMedia: OpenAPIV3_1.MediaTypeObject,
  phrase: string,
): void {
  const baseNames = Object.keys(baseMedia.examples ?? {});
  const revisionNames = Object.keys(revisionMedia.examples ?? {});
  for (const name of revisionNames) {
    if (baseNames.includes(name) || comparison.newActions.has(name)) continue;
    add(comparison, { kind: 'example-added', category: 'added', impact: 'minor', sentence: `New example \`${name}\` ${phrase}.` });
  }
  for (const name of baseNames) {
    if (revisionNames.includes(name) || comparison.removedActions.has(name)) continue;
    add(comparison, { kind: 'example-removed', category: 'removed', impact: 'patch', sentence: `Example \`${name}\` ${phrase} was removed.` });
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
function compareHeaders(
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
      impact: 'patch',
      sentence: `Header \`${name}\` of the \`${status}\` response is ${header.required === true ? 'now marked required' : 'no longer marked required'}.`,
    });
  }
}

function compareOperation(comparison: Comparison, label: string, baseOperation: Operation, revision: OpenAPIV3_1.OperationObject): void {
  const base = baseOperation.operation;
  const baseRequestPointer = isReference(base.requestBody) ? base.requestBody.$ref : `${baseOperation.pointer}/requestBody`;
  const baseRequest = mediaTypesOf(comparison.base, base.requestBody);
  const revisionRequest = mediaTypesOf(comparison.revision, revision.requestBody);
  for (const [mediaType, revisionMedia] of Object.entries(revisionRequest)) {
    const baseMedia = baseRequest[mediaType];
    if (baseMedia === undefined) continue;
    const baseVariants = requestVariants(comparison.base, baseMedia);
    const revisionVariants = requestVariants(comparison.revision, revisionMedia);
    for (const [identifier, revisionBranch] of revisionVariants) {
      const baseBranch = baseVariants.get(identifier);
      if (baseBranch === undefined) {
        const title = typeof revisionBranch.title === 'string' ? `: ${revisionBranch.title}` : '';
        add(comparison, {
          kind: 'action-added',
          category: 'added',
          impact: 'minor',
          sentence: `New action \`${identifier}\`${title}.`,
          action: identifier,
        });
        continue;
      }
      const owner: FieldOwner =
        identifier === ''
          ? { direction: 'request', phrase: `in the \`${label}\` request` }
          : { direction: 'request', phrase: `for \`${identifier}\``, action: identifier };
      compareFields(comparison, owner, baseBranch, revisionBranch, '', 0);
      compareOpenness(comparison, owner, identifier === '' ? `The \`${label}\` request` : `The request for \`${identifier}\``, baseBranch, revisionBranch);
    }
    for (const identifier of baseVariants.keys()) {
      if (revisionVariants.has(identifier)) continue;
      add(comparison, {
        kind: 'action-removed',
        category: 'removed',
        impact: 'major',
        sentence: `Action \`${identifier}\` was removed.`,
        action: identifier,
        pointer: `${baseRequestPointer}/content/${encodePointerSegment(mediaType)}/schema/discriminator/mapping/${encodePointerSegment(identifier)}`,
      });
    }
    compareExamples(comparison, baseMedia, revisionMedia, 'of the request body');
  }

  const baseResponses = base.responses ?? {};
  const revisionResponses = revision.responses ?? {};
  for (const [status, revisionResponse] of Object.entries(revisionResponses)) {
    const baseResponse = baseResponses[status];
    if (baseResponse === undefined) {
      add(comparison, { kind: 'response-added', category: 'added', impact: 'minor', sentence: `New response \`${status}\` for \`${label}\`.` });
      continue;
    }
    const baseMediaTypes = mediaTypesOf(comparison.base, baseResponse);
    for (const [mediaType, revisionMedia] of Object.entries(mediaTypesOf(comparison.revision, revisionResponse))) {
      const baseMedia = baseMediaTypes[mediaType];
      if (baseMedia === undefined) continue;
      const owner: FieldOwner = { direction: 'response', phrase: `in the \`${status}\` response` };
      const baseSchema = schemaOf(comparison.base, baseMedia.schema);
      const revisionSchema = schemaOf(comparison.revision, revisionMedia.schema);
      compareFields(comparison, owner, baseSchema, revisionSchema, '', 0);
      compareOpenness(comparison, owner, `The body of the \`${status}\` response`, baseSchema, revisionSchema);
      compareExamples(comparison, baseMedia, revisionMedia, `of the \`${status}\` response`);
    }
    compareHeaders(comparison, status, baseResponse, revisionResponse);
  }
  for (const status of Object.keys(baseResponses)) {
    if (status in revisionResponses) continue;
    add(comparison, { kind: 'response-removed', category: 'removed', impact: 'major', sentence: `Response \`${status}\` of \`${label}\` was removed.` });
  }
}

/** A field or an action of the contract, as far as deprecation is concerned. */
interface Member {
  /** Identifies the same field or action across versions. */
  key: string;
  /** "Field `note` for `pause_subscription`" or "Action `trial_end`". */
  subject: string;
  deprecated: boolean;
  action?: string;
}

/** Every action and every field (nested ones too) of every request variant and response. */
function membersOf(document: OpenApiDocument): Member[] {
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

interface TransitionEntry {
  from: string[];
  to?: string;
  toField?: string;
  moves: Record<string, string[]>;
}

/** The lifecycle table of the root's `x-transitions`: what each action accepts and where it leads. */
function transitionsOf(document: OpenApiDocument): Map<string, TransitionEntry> {
  const table = new Map<string, TransitionEntry>();
  const extension: unknown = (document as unknown as Record<string, unknown>)['x-transitions'];
  const actions = isRecord(extension) ? extension.actions : undefined;
  if (!isRecord(actions)) return table;
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  for (const [identifier, entry] of Object.entries(actions)) {
    if (!isRecord(entry)) continue;
    const moves: Record<string, string[]> = {};
    if (isRecord(entry.moves)) for (const [from, targets] of Object.entries(entry.moves)) moves[from] = strings(targets);
    table.set(identifier, {
      from: strings(entry.from),
      ...(typeof entry.to === 'string' ? { to: entry.to } : {}),
      ...(typeof entry.toField === 'string' ? { toField: entry.toField } : {}),
      moves,
    });
  }
  return table;
}

function compareTransitions(comparison: Comparison): void {
  const base = transitionsOf(comparison.base);
  const revision = transitionsOf(comparison.revision);
  // Changes are told where the revision has the action's entry, or had the table's, for one taken out.
  const pointer = (action: string): string => (revision.has(action) ? `#/x-transitions/actions/${encodePointerSegment(action)}` : '#/x-transitions/actions');
  const widened = (action: string, sentence: string): void =>
    add(comparison, { kind: 'transition-widened', category: 'changed', impact: 'minor', sentence, action, pointer: pointer(action) });
  const narrowed = (action: string, sentence: string): void =>
    add(comparison, { kind: 'transition-narrowed', category: 'changed', impact: 'major', sentence, action, pointer: pointer(action) });

  for (const [action, before] of base) {
    const after = revision.get(action);
    if (after === undefined) {
      if (!comparison.removedActions.has(action)) narrowed(action, `Action \`${action}\` was taken out of the lifecycle table (\`x-transitions\`).`);
      continue;
    }
    const lost = before.from.filter((state) => !after.from.includes(state));
    const gained = after.from.filter((state) => !before.from.includes(state));
    if (lost.length > 0) narrowed(action, `Action \`${action}\` no longer applies to subscriptions that are ${list(lost)}.`);
    if (gained.length > 0) widened(action, `Action \`${action}\` now also applies to subscriptions that are ${list(gained)}.`);
    if (before.to !== after.to || before.toField !== after.toField) {
      const target = (entry: TransitionEntry): string =>
        entry.to !== undefined ? `\`${entry.to}\`` : entry.toField !== undefined ? `the status given in \`${entry.toField}\`` : 'nowhere';
      narrowed(action, `Action \`${action}\` now leads to ${target(after)} instead of ${target(before)}.`);
    }
    for (const [from, targets] of Object.entries(before.moves)) {
      const kept = after.moves[from] ?? [];
      const gone = targets.filter((target) => !kept.includes(target));
      if (gone.length > 0) narrowed(action, `Action \`${action}\` no longer moves a subscription from \`${from}\` to ${list(gone)}.`);
    }
    for (const [from, targets] of Object.entries(after.moves)) {
      const known = before.moves[from] ?? [];
      const fresh = targets.filter((target) => !known.includes(target));
      if (fresh.length > 0) widened(action, `Action \`${action}\` now also moves a subscription from \`${from}\` to ${list(fresh)}.`);
    }
  }
  for (const action of revision.keys()) {
    if (!base.has(action) && !comparison.newActions.has(action)) {
      widened(action, `Action \`${action}\` joined the lifecycle table (\`x-transitions\`).`);
    }
  }
}

/**
 * What changed from one bundled version of the contract to the next, in a client developer's
 * terms: actions, fields of requests and responses, examples, deprecations and the lifecycle
 * table. Each change carries the version part it needs, so the gate can say which bump is due.
 */
export function compareContracts(base: OpenApiDocument, revision: OpenApiDocument): ContractChange[] {
  const baseActions = actionIdentifiers(base);
  const revisionActions = actionIdentifiers(revision);
  const comparison: Comparison = {
    base,
    revision,
    newActions: new Set([...revisionActions].filter((action) => !baseActions.has(action))),
    removedActions: new Set([...baseActions].filter((action) => !revisionActions.has(action))),
    revisionActions,
    changes: [],
  };

  const baseOperations = operationsOf(base);
  const revisionOperations = operationsOf(revision);
  for (const [label, { operation }] of revisionOperations) {
    const before = baseOperations.get(label);
    if (before === undefined) {
      add(comparison, { kind: 'operation-added', category: 'added', impact: 'minor', sentence: `New operation \`${label}\`.` });
      continue;
    }
    compareOperation(comparison, label, before, operation);
  }
  for (const label of baseOperations.keys()) {
    if (!revisionOperations.has(label)) {
      add(comparison, { kind: 'operation-removed', category: 'removed', impact: 'major', sentence: `Operation \`${label}\` was removed.` });
    }
  }

  compareTransitions(comparison);

  const baseMembers = new Map(membersOf(base).map((member) => [member.key, member]));
  for (const member of membersOf(revision)) {
    const before = baseMembers.get(member.key);
    // A field or action that arrives already deprecated gets a deprecation entry beside its
    // addition: a reader scanning a version's deprecations must not have to read its additions.
    if (before === undefined ? !member.deprecated : before.deprecated === member.deprecated) continue;
    const action = member.action === undefined ? {} : { action: member.action };
    if (member.deprecated) {
      // Semantic Versioning 2.0.0, item 7: marking something deprecated takes a minor version.
      add(comparison, { kind: 'deprecated', category: 'deprecated', impact: 'minor', sentence: `${member.subject} is deprecated.`, ...action });
    } else {
      add(comparison, { kind: 'undeprecated', category: 'changed', impact: 'patch', sentence: `${member.subject} is no longer deprecated.`, ...action });
    }
  }
  return comparison.changes;
}
