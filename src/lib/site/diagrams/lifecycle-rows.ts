import type { LifecycleEdge } from '../../contract/lifecycle.ts';
import type { Lifecycle } from '../../contract/model.ts';
import type { Box } from './diagram-geometry.ts';
import { lineHeight, textWidth } from './diagram-geometry.ts';
import type { ArrowPlan, VariantSettings } from './lifecycle-types.ts';

/** Stage 2 of the lifecycle layout (src/lib/site/diagrams/lifecycle-layout.ts): the statuses in rows, from the first status down. */

const boxHeight = 36;
/** Space left between a frame's last row and its bottom edge, so an arrow leaving the frame is seen to leave the frame. */
const frameFoot = 26;

/**
 * Rows of statuses: each status one row below the longest chain that reaches it once the edges
 * closing a cycle are set aside, so the lifecycle reads from top to bottom.
 */
export function rankRows(states: string[], edges: LifecycleEdge[], finals: string[]): string[][] {
  if (states.length === 0) return [];
  const inside = new Set(states);
  const successors = new Map(states.map((state) => [state, [] as string[]]));
  for (const edge of edges) if (inside.has(edge.from) && inside.has(edge.to) && edge.from !== edge.to) successors.get(edge.from)?.push(edge.to);
  const order = new Map(states.map((state, index) => [state, index]));
  for (const list of successors.values()) list.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));

  const forward = new Map<string, string[]>(states.map((state) => [state, []]));
  const visiting = new Set<string>();
  const visited = new Set<string>();
  const visit = (state: string): void => {
    visiting.add(state);
    for (const next of successors.get(state) ?? []) {
      if (visiting.has(next)) continue;
      forward.get(state)?.push(next);
      if (!visited.has(next)) visit(next);
    }
    visiting.delete(state);
    visited.add(state);
  };
  for (const state of states) if (!visited.has(state)) visit(state);

  const rank = new Map<string, number>();
  const rankOf = (state: string): number => {
    const known = rank.get(state);
    if (known !== undefined) return known;
    const predecessors = states.filter((other) => forward.get(other)?.includes(state));
    const value = predecessors.length === 0 ? 0 : Math.max(...predecessors.map(rankOf)) + 1;
    rank.set(state, value);
    return value;
  };
  states.forEach(rankOf);
  const bottom = Math.max(...rank.values());
  for (const state of finals) if (inside.has(state)) rank.set(state, bottom);
  const rows: string[][] = Array.from({ length: bottom + 1 }, () => []);
  for (const state of states) rows[rank.get(state) ?? 0]?.push(state);
  return rows.filter((row) => row.length > 0);
}

/** The statuses in rows and where the frame starts and ends. */
export interface StatusPlacement {
  boxes: Map<string, Box>;
  rowOf: Map<string, number>;
  rowMembers: string[][];
  inFrame: string[];
  coreWidth: number;
  coreHeight: number;
  frameTop: number;
  frameBottom: number;
}

/** Stage 2: regions from top to bottom (statuses that only lead into the frame, the frame, the rest), each in rows. */
export function placeStatuses(lifecycle: Lifecycle, plan: ArrowPlan, settings: VariantSettings, rowGap: number, columnGap: number): StatusPlacement {
  const { edges, members } = plan;
  const reachableFromFrame = new Set<string>(members);
  for (let grew = true; grew; ) {
    grew = false;
    for (const edge of edges) {
      if (reachableFromFrame.has(edge.from) && !reachableFromFrame.has(edge.to)) {
        reachableFromFrame.add(edge.to);
        grew = true;
      }
    }
  }
  for (const [target] of plan.frameExits) reachableFromFrame.add(target);
  const above = plan.hasFrame ? lifecycle.states.filter((state) => !reachableFromFrame.has(state)) : [];
  const inFrame = lifecycle.states.filter((state) => members.has(state));
  const below = lifecycle.states.filter((state) => !members.has(state) && !above.includes(state));
  const wrap = (rows: string[][]): string[][] =>
    rows.flatMap((row) => Array.from({ length: Math.ceil(row.length / settings.perRow) }, (_, index) => row.slice(index * settings.perRow, (index + 1) * settings.perRow)));
  const regions = [
    { name: 'above', rows: wrap(rankRows(above, edges, [])) },
    { name: 'frame', rows: wrap(rankRows(inFrame, edges, [])) },
    { name: 'below', rows: wrap(rankRows(below, edges, lifecycle.finalStates)) },
  ];

  const boxWidth = Math.ceil(Math.max(...lifecycle.states.map((state) => textWidth(state) + settings.boxPadding)));
  const widest = Math.max(...regions.flatMap((region) => region.rows.map((row) => row.length)));
  const coreWidth = widest * boxWidth + (widest - 1) * columnGap;

  // Rows from the top; the frame adds a caption above its rows and a foot below them.
  const boxes = new Map<string, Box>();
  const rowOf = new Map<string, number>();
  const rowMembers: string[][] = [];
  let y = settings.padding;
  let frameTop = 0;
  let frameBottom = 0;
  for (const region of regions) {
    if (region.rows.length === 0) continue;
    if (rowMembers.length > 0) y += rowGap;
    if (region.name === 'frame') {
      frameTop = y;
      y += lineHeight + 10 + settings.framePadding;
    }
    for (const [index, row] of region.rows.entries()) {
      if (index > 0) y += rowGap;
      // Barycentre ordering: a status sits under the statuses that lead to it.
      const barycentre = (state: string): number => {
        const sources = edges
          .filter((edge) => edge.to === state && boxes.has(edge.from))
          .map((edge) => boxes.get(edge.from))
          .filter((box): box is Box => box !== undefined)
          .map((box) => box.x + box.width / 2);
        return sources.length === 0 ? coreWidth / 2 : sources.reduce((sum, x) => sum + x, 0) / sources.length;
      };
      const ordered = row.map((state, order) => ({ state, order, at: barycentre(state) })).sort((a, b) => a.at - b.at || a.order - b.order);
      const rowWidth = ordered.length * boxWidth + (ordered.length - 1) * columnGap;
      ordered.forEach(({ state }, column) => {
        boxes.set(state, { x: coreWidth / 2 - rowWidth / 2 + column * (boxWidth + columnGap), y, width: boxWidth, height: boxHeight });
        rowOf.set(state, rowMembers.length);
      });
      rowMembers.push(ordered.map(({ state }) => state));
      y += boxHeight;
    }
    if (region.name === 'frame') {
      y += frameFoot;
      frameBottom = y;
    }
  }
  return { boxes, rowOf, rowMembers, inFrame, coreWidth, coreHeight: y, frameTop, frameBottom };
}

/** Questions about where a status sits, asked by the later stages. */
export function statusQueries(lifecycle: Lifecycle, placement: StatusPlacement) {
  const { boxes, rowOf, rowMembers } = placement;
  const boxOf = (state: string): Box => {
    const box = boxes.get(state);
    if (box === undefined) throw new Error(`The diagram has no box for ${state}`);
    return box;
  };
  const row = (state: string): number => rowOf.get(state) ?? 0;
  const rowList = (state: string): string[] => rowMembers[row(state)] ?? [];
  const order = new Map(lifecycle.states.map((state, index) => [state, index]));
  return {
    boxOf,
    row,
    isLeftmost: (state: string): boolean => rowList(state)[0] === state,
    isRightmost: (state: string): boolean => rowList(state).at(-1) === state,
    centreX: (state: string): number => boxOf(state).x + boxOf(state).width / 2,
    centreY: (state: string): number => boxOf(state).y + boxOf(state).height / 2,
    pairKey: (edge: LifecycleEdge): number => (order.get(edge.from) ?? 0) * 100 + (order.get(edge.to) ?? 0),
  };
}

export type StatusQueries = ReturnType<typeof statusQueries>;
