import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actionNamePointer } from '../../src/lib/contract/extensible-enum.ts';
import { actionsOf, requestVariants } from '../../src/lib/releases/comparison.ts';
import { mediaTypesOf } from '../../src/lib/releases/operations.ts';
import { indexUses, type NodeUse } from '../../src/lib/releases/document-uses.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const document = bundledDocument();
const uses = indexUses(document);
const describeUse = (use: NodeUse): string => `${use.role} ${use.field} ${use.owner.phrase}`;

describe('where each node of the contract is used, for the changelog', () => {
  test('a shared schema is found at every field that refers to it, though Redocly reports its change once', () => {
    const found = (uses.get(actionNamePointer) ?? []).map(describeUse);
    assert.deepEqual(found, ['field action in the `200` response', 'items data.allowed_actions in the `409` response']);
  });

  test('a property written as a reference is its own node: only its request uses it, the schema it names is shared', () => {
    const requestMedia = Object.values(mediaTypesOf(document, document.paths?.['/action']?.post?.requestBody));
    const withNote = requestMedia.flatMap((media) => [...requestVariants(document, media)].filter(([, branch]) => 'note' in (branch.properties ?? {})).map(([action]) => action));
    assert.ok(withNote.includes('pause_subscription'));
    const pauseNote = uses.get('#/components/schemas/PauseSubscriptionRequest/properties/note') ?? [];
    assert.deepEqual(pauseNote.map(describeUse), ['field note for `pause_subscription`']);
    const note = (uses.get('#/components/schemas/Note') ?? []).map((use) => use.owner.action);
    assert.deepEqual(note, withNote);
  });

  test('each action is its own owner, named by the discriminator mapping, in the order of the mapping', () => {
    const bodies = [...uses.values()].flat().filter((use) => use.role === 'body' && use.owner.direction === 'request');
    const actions = [...new Set(bodies.map((use) => use.owner.action))];
    assert.deepEqual(actions, actionsOf(document).map((action) => action.identifier));
    const orders = actions.map((action) => bodies.find((use) => use.owner.action === action)?.ownerOrder ?? -1);
    assert.deepEqual(orders, [...orders].sort((a, b) => a - b));
  });

  test('examples and headers belong to their response, after its fields', () => {
    const header = uses.get('#/paths/~1action/post/responses/429/headers/Retry-After') ?? uses.get('#/components/responses/TooManyRequests/headers/Retry-After') ?? [];
    assert.deepEqual(header.map((use) => [use.role, use.name, use.owner.status]), [['header', 'Retry-After', '429']]);
    const examples = [...uses.values()].flat().filter((use) => use.role === 'example' && use.owner.status === '409');
    assert.ok(examples.length > 0, 'the 409 has examples');
    const fields = [...uses.values()].flat().filter((use) => use.role === 'field' && use.owner.status === '409');
    assert.ok(Math.min(...examples.map((use) => use.order)) > Math.max(...fields.map((use) => use.order)));
  });
});
