import { readLifecycle } from '../contract/lifecycle.ts';
import type { Lifecycle } from '../contract/model.ts';
import type { OpenApiDocument } from '../contract/document.ts';
import { encodePointerSegment } from '../contract/json-pointer.ts';
import { add, list, requestVariants, type Comparison } from './comparison.ts';
import { mediaTypesOf, operationsOf } from './operations.ts';

interface TransitionEntry {
  from: string[];
  to?: string;
  toField?: string;
  moves: Record<string, string[]>;
}

/**
 * The lifecycle table as the model reads it (src/lib/contract/lifecycle.ts), action by action, or
 * undefined when it cannot be read: its problems are the gate's to report, and a table read half
 * would make every action look taken out of it.
 */
function transitionsOf(document: OpenApiDocument): Map<string, TransitionEntry> | undefined {
  const actions = [...operationsOf(document).values()].flatMap(({ operation }) =>
    Object.values(mediaTypesOf(document, operation.requestBody)).flatMap((media) =>
      [...requestVariants(document, media)].filter(([identifier]) => identifier !== '').map(([identifier, branch]) => ({ identifier, requiredFields: [...new Set(branch.required ?? [])] })),
    ),
  );
  let readable = true;
  const lifecycle: Lifecycle | undefined = readLifecycle(document, actions, () => (readable = false));
  if (lifecycle === undefined || !readable) return undefined;
  const table = new Map<string, TransitionEntry>();
  for (const transition of lifecycle.transitions) {
    table.set(
      transition.action,
      transition.kind === 'fixed'
        ? { from: transition.from, to: transition.to, moves: {} }
        : { from: [], toField: transition.field, moves: Object.fromEntries(transition.moves.map((move) => [move.from, move.to])) },
    );
  }
  return table;
}

export function compareTransitions(comparison: Comparison): void {
  const base = transitionsOf(comparison.base);
  const revision = transitionsOf(comparison.revision);
  if (base === undefined || revision === undefined) return;
  // Changes are told where the revision has the action's entry, or had the table's, for one taken out.
  const pointer = (action: string): string => (revision.has(action) ? `#/x-transitions/actions/${encodePointerSegment(action)}` : '#/x-transitions/actions');
  const widened = (action: string, sentence: string): void =>
    add(comparison, { kind: 'transition-widened', category: 'changed', sentence, action, pointer: pointer(action) });
  const narrowed = (action: string, sentence: string): void =>
    add(comparison, { kind: 'transition-narrowed', category: 'changed', sentence, action, pointer: pointer(action) });

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

