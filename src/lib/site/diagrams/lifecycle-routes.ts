import type { LifecycleEdge } from '../../contract/lifecycle.ts';
import type { Box, Point } from './diagram-geometry.ts';
import { grow, segmentCrossesBox } from './diagram-geometry.ts';
import type { ArrowPlan, DiagramArrow, VariantSettings } from './lifecycle-types.ts';
import { LabelPlacementError } from './lifecycle-labels.ts';
import type { StatusPlacement, StatusQueries } from './lifecycle-rows.ts';

/**
 * Stages 3 to 6 of the lifecycle layout (src/lib/site/diagrams/lifecycle-layout.ts): a route for every edge
 * (straight between neighbouring rows, over the top within a row, a lane at the side otherwise),
 * the horizontal extent, the ports on each status, and the points of every arrow.
 */

type Side = 'top' | 'bottom' | 'left' | 'right';

export interface Port {
  box: string;
  side: Side;
  /** Orders the ports along a side so that lines leave towards where they go without crossing. */
  key: number;
  tieBreak: number;
  at?: Point;
}

export interface Route {
  edge: LifecycleEdge;
  labels: string[];
  dashed: boolean;
  kind: 'straight' | 'lane' | 'over';
  start: Port;
  end: Port;
  lane?: { side: 'left' | 'right'; x: number };
}

/** Stage 3: straight lines between neighbouring rows; over the top within a row; lanes at the sides otherwise. */
export function routeEdges(plan: ArrowPlan, placement: StatusPlacement, at: StatusQueries): { routes: Route[]; leftLanes: number; rightLanes: number } {
  const { row, centreX, centreY, pairKey, isLeftmost, isRightmost } = at;
  const routes: Route[] = [];
  const laneRoutes: Route[] = [];
  for (const { edge, labels, dashed } of plan.drawn) {
    const gap = row(edge.to) - row(edge.from);
    const port = (box: string, side: Side, key: number): Port => ({ box, side, key, tieBreak: pairKey(edge) });
    if (Math.abs(gap) === 1) {
      const down = gap > 0;
      routes.push({
        edge,
        labels,
        dashed,
        kind: 'straight',
        start: port(edge.from, down ? 'bottom' : 'top', centreX(edge.to)),
        end: port(edge.to, down ? 'top' : 'bottom', centreX(edge.from)),
      });
    } else if (gap === 0) {
      routes.push({ edge, labels, dashed, kind: 'over', start: port(edge.from, 'top', centreX(edge.to)), end: port(edge.to, 'top', centreX(edge.from)) });
    } else {
      laneRoutes.push({ edge, labels, dashed, kind: 'lane', start: port(edge.from, 'left', centreY(edge.to)), end: port(edge.to, 'left', centreY(edge.from)) });
    }
  }
  // Short lane edges take the lanes nearest the statuses, so longer ones pass around them.
  const span = (route: Route): number => Math.abs(row(route.edge.to) - row(route.edge.from));
  laneRoutes.sort((a, b) => span(a) - span(b) || pairKey(a.edge) - pairKey(b.edge));
  let leftLanes = 0;
  let rightLanes = 0;
  const middleOfCore = placement.coreWidth / 2;
  for (const route of laneRoutes) {
    const { from, to } = route.edge;
    const leftOk = isLeftmost(from) && isLeftmost(to);
    const rightOk = isRightmost(from) && isRightmost(to);
    const middle = (centreX(from) + centreX(to)) / 2;
    const preferLeft = middle < middleOfCore || (middle === middleOfCore && leftLanes <= rightLanes);
    const side: 'left' | 'right' = leftOk && rightOk ? (preferLeft ? 'left' : 'right') : leftOk ? 'left' : rightOk ? 'right' : preferLeft ? 'left' : 'right';
    route.lane = { side, x: side === 'left' ? leftLanes++ : rightLanes++ };
    route.start.side = side;
    route.end.side = side;
  }
  return { routes: [...routes, ...laneRoutes], leftLanes, rightLanes };
}

/**
 * Stage 4: the horizontal extent. Lanes sit beside the core, inside the frame, with room for
 * labels beside them; the statuses and lanes move to their final places.
 */
export function spreadHorizontally(
  routes: Route[],
  lanes: { leftLanes: number; rightLanes: number },
  placement: StatusPlacement,
  at: StatusQueries,
  settings: VariantSettings,
  extra: number,
  hasFrame: boolean,
): { width: number; frameBox: Box | undefined } {
  const { padding, framePadding, laneSpacing } = settings;
  const laneRoom = (count: number): number => (count === 0 ? 0 : 10 + count * laneSpacing) + extra;
  const left = padding + (hasFrame ? framePadding : 0) + laneRoom(lanes.leftLanes);
  const width = left + placement.coreWidth + laneRoom(lanes.rightLanes) + (hasFrame ? framePadding : 0) + padding;
  for (const box of placement.boxes.values()) box.x += left;
  for (const route of routes) {
    if (route.lane === undefined) continue;
    const index = route.lane.x;
    route.lane.x = route.lane.side === 'left' ? left - 10 - index * laneSpacing : left + placement.coreWidth + 10 + index * laneSpacing;
  }
  // A lane end on a status that is not at the end of its row would cross its neighbour: it
  // leaves from the top instead and reaches the lane above the row.
  for (const route of routes) {
    if (route.kind !== 'lane' || route.lane === undefined) continue;
    for (const port of [route.start, route.end]) {
      const extreme = route.lane.side === 'left' ? at.isLeftmost(port.box) : at.isRightmost(port.box);
      if (!extreme) {
        port.side = 'top';
        port.key = route.lane.side === 'left' ? -1 : Number.POSITIVE_INFINITY;
      }
    }
  }
  const frameBox = hasFrame ? { x: padding, y: placement.frameTop, width: width - padding * 2, height: placement.frameBottom - placement.frameTop } : undefined;
  return { width, frameBox };
}

/** Ports spread evenly over the middle of each side they share. */
export function spreadPorts(ports: Port[], boxes: Map<string, Box>): void {
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

export function portPoint(port: Port): Point {
  if (port.at === undefined) throw new Error(`The diagram placed no port on ${port.side} of ${port.box}`);
  return port.at;
}

/**
 * An arrow that meets the top or bottom of a status at a shallow angle would push one wing of its
 * head into the box: it turns to meet the edge upright for its last few pixels instead.
 */
function steepEnd(points: Point[]): Point[] {
  const tip = points.at(-1);
  const before = points.at(-2);
  if (tip === undefined || before === undefined) return points;
  const dx = tip.x - before.x;
  const dy = tip.y - before.y;
  if (Math.abs(dy) >= Math.abs(dx) || Math.abs(dy) < 28) return points;
  return [...points.slice(0, -1), { x: tip.x, y: tip.y - Math.sign(dy) * 14 }, tip];
}

/** Stage 5: the points of every arrow between statuses. */
export function drawRoutes(routes: Route[], rowGap: number): DiagramArrow[] {
  const overRoutes = routes.filter((other) => other.kind === 'over');
  return routes.map((route): DiagramArrow => {
    const start = portPoint(route.start);
    const end = portPoint(route.end);
    let points: Point[];
    if (route.kind === 'straight') {
      points = steepEnd([start, end]);
    } else if (route.kind === 'over') {
      const lift = 14 + (overRoutes.indexOf(route) % 3) * 6;
      const top = Math.min(start.y, end.y) - lift;
      points = [start, { x: start.x, y: top }, { x: end.x, y: top }, end];
    } else {
      const laneX = route.lane?.x ?? 0;
      const reach = (port: Port, point: Point): Point[] =>
        port.side === 'top' ? [point, { x: point.x, y: point.y - rowGap / 3 }, { x: laneX, y: point.y - rowGap / 3 }] : [point, { x: laneX, y: point.y }];
      points = [...reach(route.start, start), ...reach(route.end, end).reverse()];
    }
    return { points, labels: route.labels, dashed: route.dashed, fromFrame: false, from: route.edge.from, to: route.edge.to };
  });
}

/**
 * Stage 6: the frame's arrows leave its bottom edge where no status stands above it and no line
 * crosses it: one exit for all of them, as far from the statuses of the frame's last row as the
 * edge allows, so it reads as the frame's and not a status's; the arrows fan out from there.
 */
export function drawFrameArrows(frameBox: Box, framePorts: { to: string; actions: string[]; port: Port }[], arrows: DiagramArrow[], placement: StatusPlacement, at: StatusQueries, lenient: boolean): DiagramArrow[] {
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
  const lastRow = new Set(placement.rowMembers[Math.max(...placement.inFrame.map(at.row))] ?? []);
  for (const state of lastRow) {
    const box = at.boxOf(state);
    blocked.push([box.x - 8, box.x + box.width + 8]);
  }
  const targets = framePorts.map(({ to }) => at.centreX(to));
  const aim = targets.reduce((sum, x) => sum + x, 0) / Math.max(targets.length, 1);
  const clearance = (x: number): number =>
    Math.min(40, ...[...lastRow].map((state) => Math.max(at.boxOf(state).x - x, x - at.boxOf(state).x - at.boxOf(state).width)));
  // A status drawn between the frame and a target (a row that wrapped, say) must not sit on the
  // way: an exit from which every arrow passes clear of the other statuses comes first.
  const others = [...placement.boxes].filter(([state]) => !placement.inFrame.includes(state));
  const passesClear = (x: number): boolean =>
    framePorts.every(({ to, port }) =>
      others.every(([state, box]) => state === to || !segmentCrossesBox({ x, y: bottom }, portPoint(port), grow(box, 2))),
    );
  let exit: number | undefined;
  let exitIsClear = false;
  for (let x = frameBox.x + 14; x <= frameBox.x + frameBox.width - 14; x += 1) {
    if (blocked.some(([from, to]) => x > from && x < to)) continue;
    const clear = passesClear(x);
    const better =
      exit === undefined ||
      (clear && !exitIsClear) ||
      (clear === exitIsClear && (clearance(x) > clearance(exit) || (clearance(x) === clearance(exit) && Math.abs(x - aim) < Math.abs(exit - aim))));
    if (better) {
      exit = x;
      exitIsClear = clear;
    }
  }
  if (exit === undefined && !lenient) throw new LabelPlacementError(`no room on the frame's edge for its arrows`);
  exit ??= frameBox.x + frameBox.width / 2;
  const start = { x: exit, y: bottom };
  return framePorts.map(({ to, actions, port }) => {
    const end = portPoint(port);
    const straight = others.every(([state, box]) => state === to || !segmentCrossesBox(start, end, grow(box, 2)));
    const points = straight ? steepEnd([start, end]) : weaveThroughRows(start, end, placement, at.row(to));
    return { points, labels: actions, dashed: false, fromFrame: true, to };
  });
}

/**
 * A frame arrow to a status rows below, with statuses in the rows between (a row that wrapped on
 * a phone): it runs down through a gap of each row between, the one nearest its way, and turns
 * in the space above each row, so it passes beside the statuses rather than through them.
 */
function weaveThroughRows(start: Point, end: Point, placement: StatusPlacement, targetRow: number): Point[] {
  const points: Point[] = [start];
  let x = start.x;
  const firstRow = placement.rowMembers.findIndex((row) => row.some((state) => (placement.boxes.get(state)?.y ?? 0) > start.y));
  for (let index = Math.max(firstRow, 0); index < targetRow; index += 1) {
    const boxes = (placement.rowMembers[index] ?? []).map((state) => placement.boxes.get(state)).filter((box): box is Box => box !== undefined);
    const top = Math.min(...boxes.map((box) => box.y));
    if (!boxes.some((box) => x > box.x - 8 && x < box.x + box.width + 8)) continue;
    const sorted = [...boxes].sort((a, b) => a.x - b.x);
    const gaps = [
      (sorted[0]?.x ?? 0) - 14,
      ...sorted.slice(1).map((box, order) => ((sorted[order]?.x ?? 0) + (sorted[order]?.width ?? 0) + box.x) / 2),
      (sorted.at(-1)?.x ?? 0) + (sorted.at(-1)?.width ?? 0) + 14,
    ];
    const gap = gaps.reduce((best, candidate) => (Math.abs(candidate - x) < Math.abs(best - x) ? candidate : best));
    const turn = top - 14;
    points.push({ x, y: turn }, { x: gap, y: turn });
    x = gap;
  }
  const above = end.y - 14;
  points.push({ x, y: above }, { x: end.x, y: above }, end);
  return points;
}
