import type { Lifecycle, LifecycleEdge } from './lifecycle.ts';
import { acceptedStates, lifecycleEdges } from './lifecycle.ts';
import { listInWords } from './prose.ts';

/**
 * The lifecycle drawn as an SVG at build time: statuses in layers from the first status down,
 * arrows for every status change, and one text alternative that says the same in words. No
 * layout library and no client script: the graph is small, and a page must read without
 * JavaScript.
 */
export interface StateDiagram {
  svg: string;
  /** The accessible name, also the SVG's `<title>`. */
  title: string;
  /** Every transition in words, also the SVG's `<desc>`. */
  description: string;
  /** What the picture's conventions mean, for the visible caption. */
  legend: string;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

interface Arrow {
  /** The drawn line; a curve is drawn through `control` and sampled here for label placement. */
  points: Point[];
  control?: Point;
  labels: string[];
  dashed: boolean;
}

const fontSize = 12;
/** The diagram uses a monospace font, so a label's width follows from its length. */
const charWidth = fontSize * 0.6;
const nodeHeight = 36;
const rowGap = 72;
const columnGap = 112;
const laneSpacing = 20;
const padding = 16;
const groupPadding = 14;
const groupHeader = 22;

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function textWidth(text: string): number {
  return text.length * charWidth;
}

/**
 * Ranks every status by the longest path that reaches it once the edges that close a cycle are
 * set aside, so the lifecycle reads from top to bottom. Final statuses go to the bottom row.
 */
function rankStates(lifecycle: Lifecycle, edges: LifecycleEdge[]): Map<string, number> {
  const successors = new Map(lifecycle.states.map((state) => [state, [] as string[]]));
  for (const edge of edges) successors.get(edge.from)?.push(edge.to);
  const order = new Map(lifecycle.states.map((state, index) => [state, index]));
  for (const list of successors.values()) list.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));

  const forward = new Map<string, string[]>(lifecycle.states.map((state) => [state, []]));
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
  for (const state of lifecycle.states) if (!visited.has(state)) visit(state);

  const rank = new Map<string, number>();
  const rankOf = (state: string): number => {
    const known = rank.get(state);
    if (known !== undefined) return known;
    const predecessors = lifecycle.states.filter((other) => forward.get(other)?.includes(state));
    const value = predecessors.length === 0 ? 0 : Math.max(...predecessors.map(rankOf)) + 1;
    rank.set(state, value);
    return value;
  };
  lifecycle.states.forEach(rankOf);
  const bottom = Math.max(...rank.values());
  for (const state of lifecycle.finalStates) rank.set(state, bottom);
  return rank;
}

/** One sentence per action, then the final statuses: the diagram in words. */
export function describeLifecycle(lifecycle: Lifecycle): string {
  const sentences = lifecycle.transitions.map((transition) =>
    transition.kind === 'fixed'
      ? `${transition.action} moves a subscription from ${listInWords(transition.from, 'or')} to ${transition.to}.`
      : `${transition.action} sets the status given in ${transition.field}: ${transition.moves
          .map((move) => `from ${move.from} to ${listInWords(move.to, 'or')}`)
          .join('; ')}.`,
  );
  const finals =
    lifecycle.finalStates.length === 0
      ? 'No status is final.'
      : `${listInWords(lifecycle.finalStates, 'and')} ${lifecycle.finalStates.length === 1 ? 'is' : 'are'} final: no action leads out.`;
  return [`The statuses are ${listInWords(lifecycle.states, 'and')}.`, ...sentences, finals].join(' ');
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether a box straddles the frame's outline, which would cut through the label. */
function crossesFrame(box: Box, frame: Box): boolean {
  const inner = box.x > frame.x && box.y > frame.y && box.x + box.width < frame.x + frame.width && box.y + box.height < frame.y + frame.height;
  return intersects(box, frame) && !inner;
}

function segmentHitsBox(from: Point, to: Point, box: Box): boolean {
  // Sampling is enough here: segments are short and boxes are at least a label high.
  for (let step = 0; step <= 20; step += 1) {
    const x = from.x + ((to.x - from.x) * step) / 20;
    const y = from.y + ((to.y - from.y) * step) / 20;
    if (x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height) return true;
  }
  return false;
}

/** Where every status sits, and the frame around the statuses one arrow can leave together. */
interface Layout {
  rankOf: (state: string) => number;
  boxes: Map<string, Box>;
  /** Statuses in the frame: every one above the bottom row. */
  group: string[];
  /** Bottom-row statuses that fixed actions reach from every status in the frame, with those actions. */
  groupArrows: Map<string, string[]>;
  groupBox: Box | undefined;
  /** Edges drawn one by one, because no frame arrow stands for them. */
  individual: LifecycleEdge[];
  isLaneEdge: (edge: LifecycleEdge) => boolean;
  /** Where lanes begin on the left; the right side mirrors it. */
  left: number;
  width: number;
  height: number;
}

function layOut(lifecycle: Lifecycle, edges: LifecycleEdge[]): Layout {
  const rank = rankStates(lifecycle, edges);
  const rankOf = (state: string): number => rank.get(state) ?? 0;
  const rankCount = Math.max(...rank.values()) + 1;

  // Rows: statuses of one rank, ordered by where their predecessors sit, then by the enum.
  const rows: string[][] = Array.from({ length: rankCount }, () => []);
  for (const state of lifecycle.states) rows[rankOf(state)]?.push(state);
  const nodeWidth = Math.ceil(Math.max(110, ...lifecycle.states.map((state) => textWidth(state) + 28)));
  const widest = Math.max(...rows.map((row) => row.length));
  const coreWidth = widest * nodeWidth + (widest - 1) * columnGap;

  // A fixed action that accepts every status above the bottom row gets one arrow out of a frame.
  const group = lifecycle.states.filter((state) => rankOf(state) < rankCount - 1);
  const groupArrows = new Map<string, string[]>();
  for (const transition of lifecycle.transitions) {
    const sources = new Set(acceptedStates(transition));
    const whole = group.length > 2 && sources.size === group.length && group.every((state) => sources.has(state));
    if (transition.kind === 'fixed' && whole && rankOf(transition.to) === rankCount - 1) {
      groupArrows.set(transition.to, [...(groupArrows.get(transition.to) ?? []), transition.action]);
    }
  }
  const individual = edges.filter((edge) => !(groupArrows.has(edge.to) && group.includes(edge.from)));
  // Edges between neighbouring rows are straight; the others take a lane at the side.
  const isLaneEdge = (edge: LifecycleEdge): boolean => Math.abs(rankOf(edge.to) - rankOf(edge.from)) !== 1;
  const lanesPerSide = Math.ceil(individual.filter(isLaneEdge).length / 2);

  const groupUsed = groupArrows.size > 0;
  const left = padding + (groupUsed ? groupPadding : 0) + lanesPerSide * laneSpacing + 24;
  const width = left * 2 + coreWidth;
  const centerX = width / 2;
  const top = padding + (groupUsed ? groupHeader + groupPadding : 0);
  const rowY = (index: number): number => {
    const extra = groupUsed && index === rankCount - 1 ? groupPadding + 48 : 0;
    return top + index * (nodeHeight + rowGap) + extra;
  };

  const boxes = new Map<string, Box>();
  rows.forEach((row, index) => {
    const barycenter = (state: string): number => {
      const sources = edges
        .filter((edge) => edge.to === state && rankOf(edge.from) < index)
        .map((edge) => boxes.get(edge.from))
        .filter((box): box is Box => box !== undefined)
        .map((box) => box.x + box.width / 2);
      return sources.length === 0 ? centerX : sources.reduce((sum, x) => sum + x, 0) / sources.length;
    };
    const ordered = row
      .map((state, order) => ({ state, order, at: barycenter(state) }))
      .sort((a, b) => a.at - b.at || a.order - b.order);
    const rowWidth = ordered.length * nodeWidth + (ordered.length - 1) * columnGap;
    ordered.forEach(({ state }, column) => {
      boxes.set(state, {
        x: centerX - rowWidth / 2 + column * (nodeWidth + columnGap),
        y: rowY(index),
        width: nodeWidth,
        height: nodeHeight,
      });
    });
  });

  const groupBox: Box | undefined = groupUsed
    ? { x: padding, y: padding, width: width - padding * 2, height: rowY(rankCount - 2) + nodeHeight + groupPadding - padding }
    : undefined;
  const height = rowY(rankCount - 1) + nodeHeight + padding;
  return { rankOf, boxes, group, groupArrows, groupBox, individual, isLaneEdge, left, width, height };
}

/** Samples a quadratic curve, so labels can be placed along it like along straight segments. */
function sampleCurve(start: Point, control: Point, end: Point): Point[] {
  return Array.from({ length: 13 }, (_, step) => {
    const t = step / 12;
    return {
      x: (1 - t) ** 2 * start.x + 2 * (1 - t) * t * control.x + t ** 2 * end.x,
      y: (1 - t) ** 2 * start.y + 2 * (1 - t) * t * control.y + t ** 2 * end.y,
    };
  });
}

function routeArrows(layout: Layout, chosenActions: Set<string>): Arrow[] {
  const { rankOf, boxes, groupArrows, groupBox, individual, isLaneEdge, left, width } = layout;
  const boxOf = (state: string): Box => {
    const box = boxes.get(state);
    if (box === undefined) throw new Error(`The diagram has no box for ${state}`);
    return box;
  };
  const fixedLabels = (edge: LifecycleEdge): string[] => edge.actions.filter((action) => !chosenActions.has(action));
  const hasReverse = (edge: LifecycleEdge): boolean =>
    individual.some((other) => other.from === edge.to && other.to === edge.from);

  const arrows: Arrow[] = [];
  for (const edge of individual.filter((candidate) => !isLaneEdge(candidate))) {
    const from = boxOf(edge.from);
    const to = boxOf(edge.to);
    const down = rankOf(edge.to) > rankOf(edge.from);
    const labels = fixedLabels(edge);
    const paired = hasReverse(edge);
    // A pair of opposite arrows between the same two statuses gets apart ends and bows apart.
    const apart = paired ? (down ? -14 : 14) : 0;
    const start = { x: from.x + from.width / 2 + apart, y: down ? from.y + from.height : from.y };
    const end = { x: to.x + to.width / 2 + apart, y: down ? to.y : to.y + to.height };
    if (!paired) {
      arrows.push({ points: [start, end], labels, dashed: labels.length === 0 });
      continue;
    }
    const length = Math.hypot(end.x - start.x, end.y - start.y);
    const control = {
      x: (start.x + end.x) / 2 + ((end.y - start.y) / length) * -36,
      y: (start.y + end.y) / 2 + ((end.x - start.x) / length) * 36,
    };
    arrows.push({ points: sampleCurve(start, control, end), control, labels, dashed: labels.length === 0 });
  }

  // Short lane edges take the lanes nearest the statuses, so longer ones do not cross them.
  const span = (edge: LifecycleEdge): number => Math.abs(rankOf(edge.to) - rankOf(edge.from));
  const laneEdges = individual.filter(isLaneEdge).sort((a, b) => span(a) - span(b));
  let leftLanes = 0;
  let rightLanes = 0;
  for (const edge of laneEdges) {
    const from = boxOf(edge.from);
    const to = boxOf(edge.to);
    const middle = (from.x + to.x + from.width) / 2;
    const onLeft = middle < width / 2 || (middle === width / 2 && leftLanes <= rightLanes);
    const lane = onLeft ? left - 24 - leftLanes++ * laneSpacing : width - left + 24 + rightLanes++ * laneSpacing;
    // A pair of opposite lane edges would share their ends; nudge them apart by direction.
    const nudge = rankOf(edge.to) < rankOf(edge.from) ? -6 : 6;
    const startY = from.y + from.height / 2 + nudge;
    const endY = to.y + to.height / 2 + nudge;
    const labels = fixedLabels(edge);
    arrows.push({
      points: [
        { x: onLeft ? from.x : from.x + from.width, y: startY },
        { x: lane, y: startY },
        { x: lane, y: endY },
        { x: onLeft ? to.x : to.x + to.width, y: endY },
      ],
      labels,
      dashed: labels.length === 0,
    });
  }

  if (groupBox !== undefined) {
    for (const [target, actions] of groupArrows) {
      const to = boxOf(target);
      const x = to.x + to.width / 2;
      arrows.push({ points: [{ x, y: groupBox.y + groupBox.height }, { x, y: to.y }], labels: actions, dashed: false });
    }
  }
  return arrows;
}

/** Places each arrow's label where it covers no status, no other label and the fewest other arrows. */
function placeLabels(layout: Layout, arrows: Arrow[]): { box: Box; lines: string[] }[] {
  const { boxes, groupBox, width, height } = layout;
  const labelBoxes: { box: Box; lines: string[] }[] = [];
  for (const [index, arrow] of arrows.entries()) {
    if (arrow.labels.length === 0) continue;
    const labelWidth = Math.max(...arrow.labels.map(textWidth)) + 6;
    const labelHeight = arrow.labels.length * (fontSize + 3) + 4;
    const candidates: Box[] = [];
    const first = arrow.points[0];
    const last = arrow.points.at(-1);
    const apex = arrow.points[Math.floor(arrow.points.length / 2)];
    if (arrow.control !== undefined && first !== undefined && last !== undefined && apex !== undefined) {
      // A curved arrow is labelled on the outside of its bend, where its twin is not.
      const outward = { x: apex.x - (first.x + last.x) / 2, y: apex.y - (first.y + last.y) / 2 };
      const reach = Math.hypot(outward.x, outward.y) || 1;
      const centerX = apex.x + (outward.x / reach) * (labelWidth / 2 + 6);
      const centerY = apex.y + (outward.y / reach) * (labelHeight / 2 + 6);
      candidates.push({ x: centerX - labelWidth / 2, y: centerY - labelHeight / 2, width: labelWidth, height: labelHeight });
    }
    for (let segment = 0; segment < arrow.points.length - 1; segment += 1) {
      const a = arrow.points[segment];
      const b = arrow.points[segment + 1];
      if (a === undefined || b === undefined) continue;
      for (const t of [0.5, 0.35, 0.65, 0.2, 0.8]) {
        const x = a.x + (b.x - a.x) * t;
        const y = a.y + (b.y - a.y) * t;
        candidates.push(
          { x: x + 6, y: y - labelHeight / 2, width: labelWidth, height: labelHeight },
          { x: x - 6 - labelWidth, y: y - labelHeight / 2, width: labelWidth, height: labelHeight },
          { x: x - labelWidth / 2, y: y - labelHeight - 4, width: labelWidth, height: labelHeight },
          { x: x - labelWidth / 2, y: y + 4, width: labelWidth, height: labelHeight },
        );
      }
    }
    const inside = (box: Box): boolean =>
      box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
    const cost = (box: Box): number =>
      (inside(box) ? 0 : 5000) +
      1000 * [...boxes.values()].filter((other) => intersects(box, other)).length +
      500 * labelBoxes.filter((other) => intersects(box, other.box)).length +
      (groupBox !== undefined && crossesFrame(box, groupBox) ? 50 : 0) +
      10 *
        arrows.filter(
          (other, otherIndex) =>
            otherIndex !== index &&
            other.points.some((point, p) => {
              const next = other.points[p + 1];
              return next !== undefined && segmentHitsBox(point, next, box);
            }),
        ).length;
    const chosen = candidates.reduce<Box | undefined>(
      (best, candidate) => (best === undefined || cost(candidate) < cost(best) ? candidate : best),
      undefined,
    );
    if (chosen === undefined) continue;
    labelBoxes.push({ box: chosen, lines: arrow.labels });
  }
  return labelBoxes;
}

export function drawStateDiagram(lifecycle: Lifecycle, idPrefix = 'lifecycle'): StateDiagram {
  const edges = lifecycleEdges(lifecycle);
  const layout = layOut(lifecycle, edges);
  const { boxes, group, groupBox, width, height } = layout;
  const chosenActions = new Set(
    lifecycle.transitions.filter((transition) => transition.kind === 'chosen').map((transition) => transition.action),
  );
  const arrows = routeArrows(layout, chosenActions);
  const labelBoxes = placeLabels(layout, arrows);

  const title = 'Subscription lifecycle: statuses and the actions that move between them';
  const description = describeLifecycle(lifecycle);
  const chosenList = listInWords([...chosenActions], 'and');
  const legendParts = [
    'Each box is a status; arrows point from the status an action accepts to the status it leads to.',
    groupBox !== undefined ? 'An arrow leaving the dashed frame applies to every status inside it.' : '',
    chosenActions.size > 0
      ? `Dashed arrows are moves only ${chosenList} makes; it can also make moves drawn solid, as the transition table lists.`
      : '',
    lifecycle.finalStates.length > 0 ? `A double border marks a final status.` : '',
  ];
  const legend = legendParts.filter(Boolean).join(' ');

  const marker = `${idPrefix}-arrowhead`;
  const at = (point: Point): string => `${point.x.toFixed(1)} ${point.y.toFixed(1)}`;
  const path = (arrow: Arrow): string => {
    const first = arrow.points[0];
    const last = arrow.points.at(-1);
    if (arrow.control !== undefined && first !== undefined && last !== undefined) {
      return `M${at(first)} Q${at(arrow.control)} ${at(last)}`;
    }
    return arrow.points.map((point, index) => `${index === 0 ? 'M' : 'L'}${at(point)}`).join(' ');
  };

  const num = (value: number): string => String(Math.round(value * 10) / 10);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-diagram" role="img" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" aria-labelledby="${idPrefix}-title ${idPrefix}-desc">`,
    `<title id="${idPrefix}-title">${escapeXml(title)}</title>`,
    `<desc id="${idPrefix}-desc">${escapeXml(description)}</desc>`,
    `<style>
.state-diagram { max-width: 100%; height: auto; font-family: var(--sl-font-mono, ui-monospace, monospace); font-size: ${fontSize}px; }
.state-diagram .state rect { fill: var(--sl-color-gray-6, #eee); stroke: var(--sl-color-gray-2, #333); stroke-width: 1.5; }
.state-diagram .state.final rect.outer { fill: none; }
.state-diagram .state text { fill: var(--sl-color-white, #000); font-weight: 600; }
.state-diagram .group { fill: none; stroke: var(--sl-color-gray-3, #666); stroke-dasharray: 6 4; }
.state-diagram .group-label { fill: var(--sl-color-gray-2, #333); }
.state-diagram .arrow { fill: none; stroke: var(--sl-color-gray-2, #333); stroke-width: 1.5; }
.state-diagram .arrow.only-chosen { stroke-dasharray: 5 4; }
.state-diagram .arrowhead { fill: var(--sl-color-gray-2, #333); }
.state-diagram .label { fill: var(--sl-color-text-accent, #00c); }
.state-diagram .label-backdrop { fill: var(--sl-color-bg, #fff); }
</style>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path class="arrowhead" d="M0 0 L10 5 L0 10 z"/></marker></defs>`,
  );
  if (groupBox !== undefined) {
    parts.push(
      `<rect class="group" x="${num(groupBox.x)}" y="${num(groupBox.y)}" width="${num(groupBox.width)}" height="${num(groupBox.height)}" rx="10"/>`,
      `<text class="group-label" x="${num(groupBox.x + 10)}" y="${num(groupBox.y + 16)}">${escapeXml(`any of: ${listInWords(group, 'or')}`)}</text>`,
    );
  }
  for (const arrow of arrows) {
    parts.push(
      `<path class="arrow${arrow.dashed ? ' only-chosen' : ''}" d="${path(arrow)}" marker-end="url(#${marker})"/>`,
    );
  }
  for (const [state, box] of boxes) {
    const final = lifecycle.finalStates.includes(state);
    parts.push(
      `<g class="state${final ? ' final' : ''}">`,
      `<rect x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" rx="8"/>`,
      final
        ? `<rect class="outer" x="${num(box.x - 4)}" y="${num(box.y - 4)}" width="${num(box.width + 8)}" height="${num(box.height + 8)}" rx="11"/>`
        : '',
      `<text x="${num(box.x + box.width / 2)}" y="${num(box.y + box.height / 2)}" text-anchor="middle" dominant-baseline="central">${escapeXml(state)}</text>`,
      `</g>`,
    );
  }
  for (const { box, lines } of labelBoxes) {
    parts.push(
      `<rect class="label-backdrop" x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" rx="3"/>`,
      ...lines.map(
        (line, index) =>
          `<text class="label" x="${num(box.x + 3)}" y="${num(box.y + 2 + (index + 1) * (fontSize + 3) - 3)}">${escapeXml(line)}</text>`,
      ),
    );
  }
  parts.push('</svg>');

  return { svg: parts.filter(Boolean).join('\n'), title, description, legend };
}
