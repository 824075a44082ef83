import type { ExecutableContract } from '../lib/contract/executable-contract.ts';
import type { ChosenTransition } from '../lib/contract/model.ts';
import { outcomeOf, reachableByMoves } from '../lib/contract/lifecycle.ts';
import type { ConformanceCase } from './case-model.ts';

/**
 * Which lifecycle case to run next, on which subscription, after which moves. Shared by the run
 * and by the forecast made before it, so that what the suite announces is what it does.
 *
 * The cost of a choice is what the subscription loses: how many statuses it can no longer be
 * moved to once the case has run. Cases that lose nothing (a refusal, `changed: false`, a move
 * inside a cycle of the lifecycle) come first, then the cheapest losses; so a subscription serves
 * every case from a status before one that takes it away from that status for good, and a
 * subscription enters a final status only for a case that needs it. And a choice that takes a
 * subscription where it cannot come back uses a spare: never the last named subscription in its
 * group of statuses that lead to each other (its strongly connected component under the moves).
 * So the named subscriptions are never all left final, and the next run still has one in every
 * group this one had, to reach every case that does not use one up.
 */
export interface Planner {
  /** The status a case leaves a subscription in, on a deployment that answers as documented. */
  statusAfter(testCase: ConformanceCase): string;
  /** The next step, or undefined when no remaining case can be reached with these subscriptions. */
  next(remaining: readonly ConformanceCase[], subscriptions: ReadonlyMap<number, string | undefined>): PlannedStep | undefined;
  /** The moves that bring a subscription from one status to another, or undefined if none do. */
  pathBetween(from: string, to: string): string[] | undefined;
}

export interface PlannedStep {
  index: number;
  subscriptionId: number;
  /** The statuses to move through, in order, before the case is sent. */
  path: string[];
}

export function createPlanner(contract: ExecutableContract, chosen: ChosenTransition | undefined): Planner {
  const reachCache = new Map<string, Map<string, string[]>>();
  const reach = (status: string): Map<string, string[]> => {
    let paths = reachCache.get(status);
    if (paths === undefined) {
      paths = chosen === undefined ? new Map([[status, []]]) : reachableByMoves(chosen, status);
      reachCache.set(status, paths);
    }
    return paths;
  };
  const statusAfter = (testCase: ConformanceCase): string => {
    const needed = testCase.needs.kind === 'status' ? testCase.needs.status : '';
    const transition = contract.action(testCase.action ?? '')?.transition;
    if (transition === undefined) return needed;
    const outcome = outcomeOf(transition, needed, testCase.requestedStatus);
    return outcome.kind === 'changed' ? outcome.to : needed;
  };
  const sameGroup = (left: string, right: string): boolean => reach(left).has(right) && reach(right).has(left);
  return {
    statusAfter,
    pathBetween: (from, to) => reach(from).get(to),
    next(remaining, subscriptions) {
      const placed = [...subscriptions].filter((entry): entry is [number, string] => entry[1] !== undefined);
      const hasSpare = (id: number, current: string): boolean => placed.some(([other, status]) => other !== id && sameGroup(status, current));
      let best: (PlannedStep & { score: number[] }) | undefined;
      for (const [id, current] of placed) {
        const paths = reach(current);
        remaining.forEach((testCase, index) => {
          if (testCase.needs.kind !== 'status') return;
          const path = paths.get(testCase.needs.status);
          if (path === undefined) return;
          const after = statusAfter(testCase);
          const loss = paths.size - reach(after).size;
          if (loss > 0 && !hasSpare(id, current)) return;
          const score = [loss, path.length, testCase.outcome === 'changed' ? 1 : 0];
          if (best === undefined || compareScores(score, best.score) < 0) best = { index, subscriptionId: id, path, score };
        });
      }
      return best === undefined ? undefined : { index: best.index, subscriptionId: best.subscriptionId, path: best.path };
    },
  };
}

function compareScores(left: number[], right: number[]): number {
  for (let index = 0; index < left.length; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** What a run will need and reach, forecast on a deployment that answers as documented. */
export interface Forecast {
  /** Subscriptions a run needs to reach every lifecycle case, by the status each starts in. */
  needed: Map<string, number>;
  /** The lifecycle cases the named subscriptions cannot reach, by the status each needs. */
  unreachable: Map<string, number>;
  /** Where each named subscription ends: after the run, moved back where the moves allow. */
  ends: Map<number, string>;
  /** The fewest subscriptions to name besides the named ones for every case to be reached, by the status each starts in. */
  toAdd: Map<string, number>;
}

function simulate(
  planner: Planner,
  cases: readonly ConformanceCase[],
  start: ReadonlyMap<number, string | undefined>,
  supply?: (status: string) => number,
): { unreachable: ConformanceCase[]; statuses: Map<number, string | undefined> } {
  const statuses = new Map(start);
  const remaining = [...cases];
  const unreachable: ConformanceCase[] = [];
  while (remaining.length > 0) {
    const step = planner.next(remaining, statuses);
    if (step === undefined) {
      const [first] = remaining;
      if (first === undefined || first.needs.kind !== 'status') break;
      if (supply === undefined) {
        unreachable.push(...remaining);
        break;
      }
      statuses.set(supply(first.needs.status), first.needs.status);
      continue;
    }
    const [testCase] = remaining.splice(step.index, 1);
    if (testCase !== undefined) statuses.set(step.subscriptionId, planner.statusAfter(testCase));
  }
  return { unreachable, statuses };
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

/**
 * Forecasts a run: the subscriptions it needs at the least (added one at a time, each in the
 * status the first unreached case needs, until every case is reached), which cases the named
 * subscriptions cannot reach, and where each of them ends.
 */
export function forecastRun(planner: Planner, cases: readonly ConformanceCase[], named: ReadonlyMap<number, string | undefined>): Forecast {
  const lifecycle = cases.filter((testCase) => testCase.needs.kind === 'status');
  const added: string[] = [];
  simulate(planner, lifecycle, new Map(), (status) => {
    added.push(status);
    return -added.length;
  });
  const { unreachable, statuses } = simulate(planner, lifecycle, named);
  const more: string[] = [];
  if (unreachable.length > 0) {
    simulate(planner, lifecycle, named, (status) => {
      more.push(status);
      return -more.length;
    });
  }
  const ends = new Map<number, string>();
  for (const [id, status] of statuses) {
    const before = named.get(id);
    if (status === undefined || before === undefined) continue;
    ends.set(id, planner.pathBetween(status, before) === undefined ? status : before);
  }
  return {
    needed: countBy(added, (status) => status),
    unreachable: countBy(unreachable, (testCase) => (testCase.needs.kind === 'status' ? testCase.needs.status : '')),
    ends,
    toAdd: countBy(more, (status) => status),
  };
}
