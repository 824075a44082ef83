/**
 * What `redocly diff` cannot see, in one place: the lifecycle table, a vendor extension Redocly
 * does not compare, and deprecations, a promise the changelog announces with a minor version.
 * The changelog tells these changes beside the others, and the gate's compatibility step
 * (src/gate/compatibility.ts) judges them by the table below: Redocly's diff judges the rest.
 */
import type { OpenApiDocument } from '../contract/document.ts';
import { actionIdentifiers, add, type ChangeImpact, type ChangeKind, type Comparison, type ContractChange } from './comparison.ts';
import { membersOf } from './deprecations.ts';
import { indexUses, type DocumentUses } from './document-uses.ts';
import { compareTransitions } from './lifecycle-changes.ts';

/** The version part each change Redocly cannot see needs, and the name of the check that judges it. */
export const judgedBeyondRedocly: Partial<Record<ChangeKind, { impact: ChangeImpact; check: string }>> = {
  'transition-narrowed': { impact: 'major', check: 'lifecycle-narrowed' },
  'transition-widened': { impact: 'minor', check: 'lifecycle-widened' },
  deprecated: { impact: 'minor', check: 'deprecation' },
};

/** The changes of the lifecycle table, then the deprecations marked or lifted, in the changelog's order. */
export function changesBeyondRedocly(comparison: Comparison): void {
  compareTransitions(comparison);

  const baseMembers = new Map(membersOf(comparison.base, comparison.uses.base).map((member) => [member.key, member]));
  for (const member of membersOf(comparison.revision, comparison.uses.revision)) {
    const before = baseMembers.get(member.key);
    // A field or action that arrives already deprecated gets a deprecation entry beside its
    // addition: a reader scanning a version's deprecations must not have to read its additions.
    if (before === undefined ? !member.deprecated : before.deprecated === member.deprecated) continue;
    const action = member.action === undefined ? {} : { action: member.action };
    if (member.deprecated) {
      // Semantic Versioning 2.0.0, item 7: marking something deprecated takes a minor version.
      add(comparison, { kind: 'deprecated', category: 'deprecated', sentence: `${member.subject} is deprecated.`, ...action });
    } else {
      add(comparison, { kind: 'undeprecated', category: 'changed', sentence: `${member.subject} is no longer deprecated.`, ...action });
    }
  }
}

/** A comparison of two bundled documents, before any change is found. */
export function startComparison(
  base: OpenApiDocument,
  revision: OpenApiDocument,
  uses: DocumentUses = { base: indexUses(base), revision: indexUses(revision) },
): Comparison {
  const baseActions = actionIdentifiers(base);
  const revisionActions = actionIdentifiers(revision);
  return {
    base,
    revision,
    newActions: new Set([...revisionActions].filter((action) => !baseActions.has(action))),
    removedActions: new Set([...baseActions].filter((action) => !revisionActions.has(action))),
    revisionActions,
    uses,
    changes: [],
  };
}

/** The changes Redocly's diff cannot see, with the impact the gate gives each. */
export function impactsBeyondRedocly(base: OpenApiDocument, revision: OpenApiDocument): { change: ContractChange; impact: ChangeImpact; check: string }[] {
  const comparison = startComparison(base, revision);
  changesBeyondRedocly(comparison);
  return comparison.changes.flatMap((change) => {
    const judged = judgedBeyondRedocly[change.kind];
    return judged === undefined ? [] : [{ change, ...judged }];
  });
}
