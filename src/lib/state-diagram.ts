import type { ActionTransition, Lifecycle, LifecycleEdge } from './lifecycle.ts';
import { lifecycleEdges } from './lifecycle.ts';
import type { Box, Point } from './diagram-geometry.ts';
import {
  arrowSvg,
  arrowhead,
  boundsOf,
  boxOutline,
  boxesOverlap,
  grow,
  labelSize,
  labelSvg,
  lineHeight,
  num,
  segmentCrossesBox,
  stateSvg,
  svgOpening,
  textWidth,
} from './diagram-geometry.ts';
import { listInWords } from './prose.ts';

/**
 * The lifecycle drawn as SVG at build time: statuses in rows from the first status down, an arrow
 * for every status change, and a text alternative that says the same in words. An action that
 * several statuses accept alike gets one arrow out of a frame drawn around those statuses. No
 * layout library and no client script: the graph is small, and a page must read without
 * JavaScript. Two variants are drawn, a wide one and a narrow one for phones, both at the same
 * text size, and the layout checks itself: no label may cover an arrow, an arrowhead, a status or
 * another label.
 */
export interface StateDiagram {
  /** Both variants and the rule that shows the one that fits, ready for a page. */
  html: string;
  wide: DrawnVariant;
  narrow: DrawnVariant;
  /** The accessible name, also each SVG's `<title>`. */
  title: string;
  /** Every transition in words, also each SVG's `<desc>`. */
  description: string;
  /** What the picture's conventions mean, for the visible caption. */
  legend: string;
}

export type DiagramVariant = 'wide' | 'narrow';

export interface DrawnVariant {
  svg: string;
  geometry: LifecycleGeometry;
}

export interface DiagramArrow {
  /** The drawn line from its start to the tip of its head. */
  points: Point[];
  labels: string[];
  /** A move only a chosen transition (`change_status`) makes. */
  dashed: boolean;
  /** Set when the arrow stands for every status in the frame; `from` is then absent. */
  fromFrame: boolean;
  from?: string;
  to: string;
}

export interface PlacedLabel {
  box: Box;
  lines: string[];
}

export interface DiagramFrame {
  box: Box;
  members: string[];
  /** The frame's own caption, inside its top edge. */
  title: PlacedLabel;
}

/** Where everything sits: what the SVG draws and what the tests measure. */
export interface LifecycleGeometry {
  width: number;
  height: number;
  states: Map<string, Box>;
  frame: DiagramFrame | undefined;
  arrows: DiagramArrow[];
  /** Arrow labels. */
  labels: PlacedLabel[];
}

interface VariantSettings {
  /** Statuses side by side at most; a longer row wraps. */
  perRow: number;
  /** Characters on one label line at most: a longer action name breaks after an underscore. */
  lineLength: number;
  columnGap: number;
  /** Room beside a status name inside its box. */
  boxPadding: number;
  laneSpacing: number;
  padding: number;
  framePadding: number;
}

const variants: Record<DiagramVariant, VariantSettings> = {
  wide: { perRow: 1000, lineLength: 1000, columnGap: 96, boxPadding: 28, laneSpacing: 18, padding: 12, framePadding: 12 },
  narrow: { perRow: 2, lineLength: 12, columnGap: 52, boxPadding: 12, laneSpacing: 12, padding: 4, framePadding: 8 },
};

const boxHeight = 36;
/** Space left between a frame's last row and its bottom edge, so an arrow leaving the frame is seen to leave the frame. */
const frameFoot = 26;
const frameTitle = 'any status in this frame';
const firstRowGap = 64;
/** How often the layout widens its gaps before it gives up on a label. */
const attempts = 12;

/** One sentence for an action: where it moves a subscription from which statuses. */
export function describeTransition(transition: ActionTransition): string {
  return transition.kind === 'fixed'
    ? `${transition.action} moves a subscription from ${listInWords(transition.from, 'or')} to ${transition.to}.`
    : `${transition.action} sets the status given in ${transition.field}: ${transition.moves
        .map((move) => `from ${move.from} to ${listInWords(move.to, 'or')}`)
        .join('; ')}.`;
}

/** One sentence per action, then the final statuses: the diagram in words. */
export function describeLifecycle(lifecycle: Lifecycle): string {
  const finals =
    lifecycle.finalStates.length === 0
      ? 'No status is final.'
      : `${listInWords(lifecycle.finalStates, 'and')} ${lifecycle.finalStates.length === 1 ? 'is' : 'are'} final: no action leads out.`;
  return [`The statuses are ${listInWords(lifecycle.states, 'and')}.`, ...lifecycle.transitions.map(describeTransition), finals].join(' ');
}

/**
 * The statuses that fixed actions accept alike, with where those actions lead: the set of three
 * or more statuses shared by the most such actions. Their arrows leave one frame around the set
 * instead of each status, which would draw one arrow per status and action.
 */
function findFrameGroup(lifecycle: Lifecycle): { members: string[]; exits: Map<string, string[]> } | undefined {
  const groups = new Map<string, { members: string[]; exits: Map<string, string[]>; actions: number }>();
  for (const transition of lifecycle.transitions) {
    if (transition.kind !== 'fixed' || transition.from.length < 3 || transition.from.includes(transition.to)) continue;
    const members = lifecycle.states.filter((state) => transition.from.includes(state));
    const key = members.join('\u0000');
    const group = groups.get(key) ?? { members, exits: new Map<string, string[]>(), actions: 0 };
    group.exits.set(transition.to, [...(group.exits.get(transition.to) ?? []), transition.action]);
    group.actions += 1;
    groups.set(key, group);
  }
  const best = [...groups.values()].sort((a, b) => b.actions - a.actions || b.members.length - a.members.length)[0];
  return best === undefined ? undefined : { members: best.members, exits: best.exits };
}

/**
 * Rows of statuses: each status one row below the longest chain that reaches it once the edges
 * closing a cycle are set aside, so the lifecycle reads from top to bottom.
 */
function rankRows(states: string[], edges: LifecycleEdge[], finals: string[]): string[][] {
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

type Side = 'top' | 'bottom' | 'left' | 'right';

interface Port {
  box: string;
  side: Side;
  /** Orders the ports along a side so that lines leave towards where they go without crossing. */
  key: number;
  tieBreak: number;
  at?: Point;
}

interface Route {
  edge: LifecycleEdge;
  labels: string[];
  dashed: boolean;
  kind: 'straight' | 'lane' | 'over';
  start: Port;
  end: Port;
  lane?: { side: 'left' | 'right'; x: number };
}

/** Ports spread evenly over the middle of each side they share. */
function spreadPorts(ports: Port[], boxes: Map<string, Box>): void {
  const bySide = new Map<string, Port[]>();
  for (const port of ports) {
    const key = `${port.box}\u0000${port.side}`;
    bySide.set(key, [...(bySide.get(key) ?? []), port]);
  }
  for (const sharing of bySide.values()) {
    sharing.sort((a, b) => a.key - b.key || a.tieBreak - b.tieBreak);
    sharing.forEach((port, index) => {
      const box = boxes.get(port.box);
      if (box === undefined) return;
      const share = (index + 1) / (sharing.length + 1);
      if (port.side === 'top' || port.side === 'bottom') {
        port.at = { x: box.x + box.width * share, y: port.side === 'top' ? box.y : box.y + box.height };
      } else {
        port.at = { x: port.side === 'left' ? box.x : box.x + box.width, y: box.y + box.height * share };
      }
    });
  }
}

function portPoint(port: Port): Point {
  if (port.at === undefined) throw new Error(`The diagram placed no port on ${port.side} of ${port.box}`);
  return port.at;
}

interface Obstacles {
  segments: [Point, Point][];
  boxes: Box[];
}

/** Whether a label box would cover a line, an arrowhead, a status, a frame edge or another label. */
function isFree(box: Box, obstacles: Obstacles): boolean {
  const margin = grow(box, 2);
  return (
    !obstacles.segments.some(([a, b]) => segmentCrossesBox(a, b, margin)) &&
    !obstacles.boxes.some((other) => boxesOverlap(margin, other))
  );
}

/** Candidate places for a label beside each segment of its arrow, the most natural first. */
function labelCandidates(points: Point[], size: { width: number; height: number }): Box[] {
  const { width, height } = size;
  const segments = points
    .slice(0, -1)
    .map((a, index) => [a, points[index + 1] ?? a] as const)
    .map(([a, b]) => ({ a, b, length: Math.hypot(b.x - a.x, b.y - a.y) }))
    .filter((segment) => segment.length > 0)
    .sort((s, t) => t.length - s.length);
  const candidates: Box[] = [];
  for (const share of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88]) {
    for (const { a, b } of segments) {
      const x = a.x + (b.x - a.x) * share;
      const y = a.y + (b.y - a.y) * share;
      candidates.push(
        { x: x + 5, y: y - height / 2, width, height },
        { x: x - 5 - width, y: y - height / 2, width, height },
        { x: x - width / 2, y: y - height - 5, width, height },
        { x: x - width / 2, y: y + 5, width, height },
        { x: x + 5, y: y - height - 3, width, height },
        { x: x + 5, y: y + 3, width, height },
        { x: x - 5 - width, y: y - height - 3, width, height },
        { x: x - 5 - width, y: y + 3, width, height },
      );
    }
  }
  return candidates;
}

class LabelPlacementError extends Error {}

/** An arrow's label as lines: one per action, a long name broken after its underscores. */
function labelLines(actions: string[], lineLength: number): string[] {
  return actions.flatMap((action) => {
    if (action.length <= lineLength) return [action];
    const lines: string[] = [];
    for (const piece of action.split(/(?<=_)/)) {
      const last = lines.at(-1);
      if (last !== undefined && last.length + piece.length <= lineLength) lines[lines.length - 1] = last + piece;
      else lines.push(piece);
    }
    return lines;
  });
}

function layOut(lifecycle: Lifecycle, variant: DiagramVariant, rowGap: number, extra: number): LifecycleGeometry {
  const settings = variants[variant];
  const columnGap = settings.columnGap + extra;
  const { padding, framePadding, laneSpacing } = settings;
  const chosen = new Set(lifecycle.transitions.filter((transition) => transition.kind === 'chosen').map((transition) => transition.action));
  const group = findFrameGroup(lifecycle);
  const members = new Set(group?.members ?? []);
  const frameActions = new Set([...(group?.exits.values() ?? [])].flat());

  // An edge is drawn on its own unless the frame's arrow says it: the fixed actions it carries
  // beyond the frame's, if any, label it.
  const routes: Route[] = [];
  const drawn: { edge: LifecycleEdge; labels: string[]; dashed: boolean }[] = [];
  for (const edge of lifecycleEdges(lifecycle)) {
    const fixedLabels = edge.actions.filter((action) => !chosen.has(action));
    const byFrame = members.has(edge.from) && group?.exits.has(edge.to) === true;
    const labels = byFrame ? fixedLabels.filter((action) => !frameActions.has(action)) : fixedLabels;
    if (byFrame && labels.length === 0) continue;
    drawn.push({ edge, labels, dashed: labels.length === 0 });
  }

  // Regions from top to bottom: statuses that only lead into the frame, the frame, the rest.
  const edges = lifecycleEdges(lifecycle);
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
  for (const target of group?.exits.keys() ?? []) reachableFromFrame.add(target);
  const above = group === undefined ? [] : lifecycle.states.filter((state) => !reachableFromFrame.has(state));
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
  let y = padding;
  let frameTop = 0;
  let frameBottom = 0;
  for (const region of regions) {
    if (region.rows.length === 0) continue;
    if (rowMembers.length > 0) y += rowGap;
    if (region.name === 'frame') {
      frameTop = y;
      y += lineHeight + 10 + framePadding;
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
  const coreHeight = y;

  const boxOf = (state: string): Box => {
    const box = boxes.get(state);
    if (box === undefined) throw new Error(`The diagram has no box for ${state}`);
    return box;
  };
  const row = (state: string): number => rowOf.get(state) ?? 0;
  const rowList = (state: string): string[] => rowMembers[row(state)] ?? [];
  const isLeftmost = (state: string): boolean => rowList(state)[0] === state;
  const isRightmost = (state: string): boolean => rowList(state).at(-1) === state;
  const order = new Map(lifecycle.states.map((state, index) => [state, index]));
  const centreX = (state: string): number => boxOf(state).x + boxOf(state).width / 2;
  const centreY = (state: string): number => boxOf(state).y + boxOf(state).height / 2;
  const pairKey = (edge: LifecycleEdge): number => (order.get(edge.from) ?? 0) * 100 + (order.get(edge.to) ?? 0);

  // Straight lines between neighbouring rows; over the top within a row; lanes at the sides otherwise.
  let leftLanes = 0;
  let rightLanes = 0;
  const laneRoutes: Route[] = [];
  for (const { edge, labels, dashed } of drawn) {
    const gap = row(edge.to) - row(edge.from);
    if (Math.abs(gap) === 1) {
      const down = gap > 0;
      routes.push({
        edge,
        labels,
        dashed,
        kind: 'straight',
        start: { box: edge.from, side: down ? 'bottom' : 'top', key: centreX(edge.to), tieBreak: pairKey(edge) },
        end: { box: edge.to, side: down ? 'top' : 'bottom', key: centreX(edge.from), tieBreak: pairKey(edge) },
      });
    } else if (gap === 0) {
      routes.push({
        edge,
        labels,
        dashed,
        kind: 'over',
        start: { box: edge.from, side: 'top', key: centreX(edge.to), tieBreak: pairKey(edge) },
        end: { box: edge.to, side: 'top', key: centreX(edge.from), tieBreak: pairKey(edge) },
      });
    } else {
      laneRoutes.push({
        edge,
        labels,
        dashed,
        kind: 'lane',
        start: { box: edge.from, side: 'left', key: centreY(edge.to), tieBreak: pairKey(edge) },
        end: { box: edge.to, side: 'left', key: centreY(edge.from), tieBreak: pairKey(edge) },
      });
    }
  }
  // Short lane edges take the lanes nearest the statuses, so longer ones pass around them.
  const span = (route: Route): number => Math.abs(row(route.edge.to) - row(route.edge.from));
  laneRoutes.sort((a, b) => span(a) - span(b) || pairKey(a.edge) - pairKey(b.edge));
  for (const route of laneRoutes) {
    const { from, to } = route.edge;
    const leftOk = isLeftmost(from) && isLeftmost(to);
    const rightOk = isRightmost(from) && isRightmost(to);
    const middle = (centreX(from) + centreX(to)) / 2;
    const preferLeft = middle < coreWidth / 2 || (middle === coreWidth / 2 && leftLanes <= rightLanes);
    const side: 'left' | 'right' = leftOk && rightOk ? (preferLeft ? 'left' : 'right') : leftOk ? 'left' : rightOk ? 'right' : preferLeft ? 'left' : 'right';
    route.lane = { side, x: side === 'left' ? leftLanes++ : rightLanes++ };
    route.start.side = side;
    route.end.side = side;
  }
  routes.push(...laneRoutes);

  // Horizontal extent: lanes beside the core, inside the frame, with room for labels beside them.
  const laneRoom = (count: number): number => (count === 0 ? 0 : 10 + count * laneSpacing) + extra;
  const left = padding + (group !== undefined ? framePadding : 0) + laneRoom(leftLanes);
  const width = left + coreWidth + laneRoom(rightLanes) + (group !== undefined ? framePadding : 0) + padding;
  for (const box of boxes.values()) box.x += left;
  for (const route of routes) {
    if (route.lane === undefined) continue;
    const index = route.lane.x;
    route.lane.x = route.lane.side === 'left' ? left - 10 - index * laneSpacing : left + coreWidth + 10 + index * laneSpacing;
  }
  // A lane end on a status that is not at the end of its row would cross its neighbour: it
  // leaves from the top instead and reaches the lane above the row.
  for (const route of routes) {
    if (route.kind !== 'lane' || route.lane === undefined) continue;
    for (const port of [route.start, route.end]) {
      const extreme = route.lane.side === 'left' ? isLeftmost(port.box) : isRightmost(port.box);
      if (!extreme) {
        port.side = 'top';
        port.key = route.lane.side === 'left' ? -1 : Number.POSITIVE_INFINITY;
      }
    }
  }

  const frameBox: Box | undefined =
    group === undefined ? undefined : { x: padding, y: frameTop, width: width - padding * 2, height: frameBottom - frameTop };

  // Frame arrows reserve their place on their target's top first, estimated from the target.
  const framePorts = [...(group?.exits ?? [])].map(([to, actions]) => {
    const port: Port = { box: to, side: 'top', key: centreX(to), tieBreak: -1 };
    return { to, actions, port };
  });
  spreadPorts([...routes.flatMap((route) => [route.start, route.end]), ...framePorts.map(({ port }) => port)], boxes);

  const arrows: DiagramArrow[] = [];
  for (const route of routes) {
    const start = portPoint(route.start);
    const end = portPoint(route.end);
    let points: Point[];
    if (route.kind === 'straight') {
      points = [start, end];
    } else if (route.kind === 'over') {
      const lift = 14 + (routes.filter((other) => other.kind === 'over').indexOf(route) % 3) * 6;
      const top = Math.min(start.y, end.y) - lift;
      points = [start, { x: start.x, y: top }, { x: end.x, y: top }, end];
    } else {
      const laneX = route.lane?.x ?? 0;
      const reach = (port: Port, point: Point): Point[] =>
        port.side === 'top' ? [point, { x: point.x, y: point.y - rowGap / 3 }, { x: laneX, y: point.y - rowGap / 3 }] : [point, { x: laneX, y: point.y }];
      const out = reach(route.start, start);
      const back = reach(route.end, end).reverse();
      points = [...out, ...back];
    }
    arrows.push({ points, labels: route.labels, dashed: route.dashed, fromFrame: false, from: route.edge.from, to: route.edge.to });
  }

  // Frame arrows leave the frame's bottom edge where no status stands above it and no line crosses it.
  if (frameBox !== undefined) {
    const bottom = frameBox.y + frameBox.height;
    const blocked: [number, number][] = [];
    for (const arrow of arrows) {
      for (const [index, a] of arrow.points.entries()) {
        const b = arrow.points[index + 1];
        if (b === undefined || (a.y - bottom) * (b.y - bottom) > 0 || a.y === b.y) continue;
        const x = a.x + ((b.x - a.x) * (bottom - a.y)) / (b.y - a.y);
        blocked.push([x - 10, x + 10]);
      }
    }
    // One exit for all of them, as far from the statuses of the frame's last row as the edge
    // allows, so it reads as the frame's and not a status's; the arrows fan out from there.
    const lastRow = new Set(rowMembers[Math.max(...inFrame.map(row))] ?? []);
    for (const state of lastRow) {
      const box = boxOf(state);
      blocked.push([box.x - 8, box.x + box.width + 8]);
    }
    const targets = framePorts.map(({ to }) => centreX(to));
    const aim = targets.reduce((sum, x) => sum + x, 0) / Math.max(targets.length, 1);
    const clearance = (x: number): number =>
      Math.min(40, ...[...lastRow].map((state) => Math.max(boxOf(state).x - x, x - boxOf(state).x - boxOf(state).width)));
    let exit: number | undefined;
    for (let x = frameBox.x + 14; x <= frameBox.x + frameBox.width - 14; x += 1) {
      if (blocked.some(([from, to]) => x > from && x < to)) continue;
      const better =
        exit === undefined || clearance(x) > clearance(exit) || (clearance(x) === clearance(exit) && Math.abs(x - aim) < Math.abs(exit - aim));
      if (better) exit = x;
    }
    if (exit === undefined) throw new LabelPlacementError(`no room on the frame's edge for its arrows`);
    for (const { to, actions, port } of framePorts) {
      arrows.push({ points: [{ x: exit, y: bottom }, portPoint(port)], labels: actions, dashed: false, fromFrame: true, to });
    }
  }

  // Labels: each beside its own arrow, clear of every line, arrowhead, status, frame edge and label.
  const obstacles: Obstacles = { segments: [], boxes: [] };
  for (const arrow of arrows) {
    arrow.points.slice(0, -1).forEach((a, index) => obstacles.segments.push([a, arrow.points[index + 1] ?? a]));
    const tip = arrow.points.at(-1);
    const before = arrow.points.at(-2);
    if (tip !== undefined && before !== undefined) obstacles.boxes.push(boundsOf(arrowhead(before, tip)));
    const start = arrow.points[0];
    if (arrow.fromFrame && start !== undefined) obstacles.boxes.push({ x: start.x - 4, y: start.y - 4, width: 8, height: 8 });
  }
  for (const [state, box] of boxes) obstacles.boxes.push(grow(box, lifecycle.finalStates.includes(state) ? 6 : 2));
  let frame: DiagramFrame | undefined;
  if (frameBox !== undefined && group !== undefined) {
    obstacles.segments.push(...boxOutline(frameBox));
    const size = labelSize([frameTitle]);
    const title = [
      { x: frameBox.x + 8, y: frameBox.y + 5, ...size },
      { x: frameBox.x + frameBox.width - 8 - size.width, y: frameBox.y + 5, ...size },
    ].find((candidate) => isFree(candidate, obstacles));
    if (title === undefined) throw new LabelPlacementError(`no room for the frame's caption`);
    obstacles.boxes.push(title);
    frame = { box: frameBox, members: inFrame, title: { box: title, lines: [frameTitle] } };
  }
  const height = coreHeight + padding;
  const canvas: Box = { x: 0, y: 0, width, height };
  const labels: PlacedLabel[] = [];
  for (const arrow of arrows) {
    if (arrow.labels.length === 0) continue;
    const lines = labelLines(arrow.labels, settings.lineLength);
    const size = labelSize(lines);
    const box = labelCandidates(arrow.points, size).find(
      (candidate) =>
        candidate.x >= 1 &&
        candidate.y >= 1 &&
        candidate.x + candidate.width <= canvas.width - 1 &&
        candidate.y + candidate.height <= canvas.height - 1 &&
        isFree(candidate, obstacles),
    );
    if (box === undefined) throw new LabelPlacementError(`no free place for the label ${arrow.labels.join(', ')}`);
    labels.push({ box, lines });
    obstacles.boxes.push(box);
  }
  return { width, height, states: boxes, frame, arrows, labels };
}

/**
 * The layout of one variant. Gaps widen until every label finds a free place; a lifecycle that
 * still leaves one without stops the build with the label named, rather than covering an arrow.
 */
export function layOutLifecycle(lifecycle: Lifecycle, variant: DiagramVariant): LifecycleGeometry {
  let problem = '';
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      return layOut(lifecycle, variant, firstRowGap + attempt * 20, variant === 'wide' ? attempt * 12 : 0);
    } catch (error) {
      if (!(error instanceof LabelPlacementError)) throw error;
      problem = error.message;
    }
  }
  throw new Error(`The ${variant} state diagram cannot be drawn without a label covering an arrow: ${problem}.`);
}

function variantSvg(lifecycle: Lifecycle, geometry: LifecycleGeometry, id: string, variant: DiagramVariant, title: string, description: string): string {
  const { width, height, states, frame, arrows, labels } = geometry;
  const parts = [svgOpening({ id, className: `lifecycle-diagram variant-${variant}`, width, height, title, description })];
  if (frame !== undefined) {
    const { box } = frame;
    parts.push(`<rect class="frame" x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" rx="10"/>`);
    parts.push(labelSvg(frame.title.box, frame.title.lines, 'frame-caption'));
  }
  for (const arrow of arrows) {
    parts.push(arrowSvg(arrow.points, `arrow${arrow.dashed ? ' only-chosen' : ''}`));
    const start = arrow.points[0];
    if (arrow.fromFrame && start !== undefined && arrow === arrows.find((other) => other.fromFrame)) parts.push(`<circle class="frame-exit" cx="${num(start.x)}" cy="${num(start.y)}" r="3.5"/>`);
  }
  for (const [state, box] of states) parts.push(stateSvg(state, box, lifecycle.finalStates.includes(state)));
  for (const { box, lines } of labels) parts.push(labelSvg(box, lines));
  parts.push('</svg>');
  return parts.join('\n');
}

export function drawStateDiagram(lifecycle: Lifecycle, idPrefix = 'lifecycle'): StateDiagram {
  const title = 'Subscription lifecycle: statuses and the actions that move between them';
  const description = describeLifecycle(lifecycle);
  const draw = (variant: DiagramVariant): DrawnVariant => {
    const geometry = layOutLifecycle(lifecycle, variant);
    return { geometry, svg: variantSvg(lifecycle, geometry, `${idPrefix}-${variant}`, variant, title, description) };
  };
  const wide = draw('wide');
  const narrow = draw('narrow');

  const chosenActions = lifecycle.transitions.filter((transition) => transition.kind === 'chosen').map((transition) => transition.action);
  const legend = [
    'Each box is a status; arrows point from the status an action accepts to the status it leads to.',
    wide.geometry.frame !== undefined ? 'An arrow that leaves the dashed frame, from a dot on its edge, applies to every status inside it.' : '',
    chosenActions.length > 0
      ? `Dashed arrows are moves only ${listInWords(chosenActions, 'and')} makes; it can also make moves drawn solid, as the transition table lists.`
      : '',
    lifecycle.finalStates.length > 0 ? 'A double border marks a final status.' : '',
  ]
    .filter(Boolean)
    .join(' ');

  // The wide drawing shows while its container holds it at full size; below that the narrow one
  // does, so the text never shrinks below the size it is drawn at.
  const switchRule = `<style>@container lifecycle-diagram (max-width: ${num(Math.ceil(wide.geometry.width) - 0.02)}px) { .lifecycle-variants > .variant-wide { display: none; } .lifecycle-variants > .variant-narrow { display: block; } }</style>`;
  const html = [switchRule, `<div class="lifecycle-variants">`, wide.svg, narrow.svg, `</div>`].join('\n');
  return { html, wide, narrow, title, description, legend };
}
