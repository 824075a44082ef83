import type { OpenAPIV3_1 } from 'openapi-types';
import { isReference, type OpenApiDocument } from '../contract/document.ts';
import { encodePointerSegment } from '../contract/json-pointer.ts';
import {
  add,
  mediaTypesOf,
  operationsOf,
  requestVariants,
  schemaOf,
  type Comparison,
  type ContractChange,
  type FieldOwner,
  type Operation,
} from './comparison.ts';
import { changesBeyondRedocly, startComparison } from './beyond-redocly.ts';
import { compareExamples, compareFields, compareHeaders, compareOpenness } from './field-changes.ts';

export {
  actionIdentifiers,
  actionsOf,
  type ChangeCategory,
  type ChangeImpact,
  type ChangeKind,
  type ContractChange,
  type Deprecation,
} from './comparison.ts';
export { judgedBeyondRedocly, impactsBeyondRedocly } from './beyond-redocly.ts';
export { deprecationsOf } from './deprecations.ts';
export { gainedOnlyNewActions } from './field-changes.ts';

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
      add(comparison, { kind: 'response-added', category: 'added', sentence: `New response \`${status}\` for \`${label}\`.` });
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
    add(comparison, { kind: 'response-removed', category: 'removed', sentence: `Response \`${status}\` of \`${label}\` was removed.` });
  }
}

/**
 * What changed from one bundled version of the contract to the next, in a client developer's
 * terms: actions, fields of requests and responses, examples, deprecations and the lifecycle
 * table. Each change carries the version part it needs, so the gate can say which bump is due.
 */
export function compareContracts(base: OpenApiDocument, revision: OpenApiDocument): ContractChange[] {
  const comparison = startComparison(base, revision);

  const baseOperations = operationsOf(base);
  const revisionOperations = operationsOf(revision);
  for (const [label, { operation }] of revisionOperations) {
    const before = baseOperations.get(label);
    if (before === undefined) {
      add(comparison, { kind: 'operation-added', category: 'added', sentence: `New operation \`${label}\`.` });
      continue;
    }
    compareOperation(comparison, label, before, operation);
  }
  for (const label of baseOperations.keys()) {
    if (!revisionOperations.has(label)) {
      add(comparison, { kind: 'operation-removed', category: 'removed', sentence: `Operation \`${label}\` was removed.` });
    }
  }

  changesBeyondRedocly(comparison);
  return comparison.changes;
}
