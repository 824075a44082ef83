import type { ActionTransition, Lifecycle } from '../../contract/model.ts';
import { acceptedStates, targetStates } from '../../contract/lifecycle.ts';
import type { Box, Point } from './diagram-geometry.ts';
import { arrowSvg, labelSize, labelSvg, num, stateSvg, svgOpening, textWidth } from './diagram-geometry.ts';
import { describeTransition } from './state-diagram.ts';

/**
 * One action's part of the lifecycle, drawn small for its reference page: the statuses it accepts
 * in a column on the left, where it leads on the right. Several accepted statuses sit in a frame,
 * and the action's one arrow leaves the frame; `change_status` draws each move it allows.
 */
export interface ActionDiagram {
  svg: string;
  title: string;
  description: string;
  geometry: ActionGeometry;
}

export interface ActionGeometry {
  width: number;
  height: number;
  /** Accepted statuses on the left, targets on the right; a status can be in both columns. */
  states: { state: string; column: 'from' | 'to'; box: Box }[];
  frame: Box | undefined;
  arrows: { points: Point[]; fromFrame: boolean }[];
  /** The column headings. */
  labels: { box: Box; lines: string[] }[];
}

const padding = 6;
const framePadding = 10;
const columnGap = 80;
const rowGap = 12;
const boxHeight = 36;
/** Room per line that meets a status box, so arrowheads do not touch. */
const portSpacing = 11;

function layOutAction(lifecycle: Lifecycle, transition: ActionTransition): ActionGeometry {
  const order = (states: string[]): string[] => lifecycle.states.filter((state) => states.includes(state));
  const sources = order(acceptedStates(transition));
  const targets = order(targetStates(transition));
  const moves =
    transition.kind === 'fixed'
      ? sources.map((from) => ({ from, to: transition.to }))
      : transition.moves.flatMap((move) => move.to.map((to) => ({ from: move.from, to })));
  const framed = transition.kind === 'fixed' && sources.length > 1;

  const boxWidth = Math.ceil(Math.max(...lifecycle.states.map(textWidth)) + 16);
  const headings = [['accepted from'], [transition.kind === 'fixed' ? 'leads to' : `sets ${transition.field} to`]];
  const headingHeight = labelSize(headings[0] ?? []).height;
  const fromX = padding + (framed ? framePadding : 0);
  const toX = fromX + boxWidth + (framed ? framePadding : 0) + columnGap;
  const width = toX + boxWidth + padding;
  const top = padding + headingHeight + 8 + (framed ? framePadding : 0);

  const outgoing = (state: string): number => moves.filter((move) => move.from === state).length;
  const incoming = (state: string): number => (framed ? 1 : moves.filter((move) => move.to === state).length);
  const heightFor = (lines: number): number => Math.max(boxHeight, lines * portSpacing + 8);

  const fromBoxes = new Map<string, Box>();
  let y = top;
  for (const state of sources) {
    const height = heightFor(framed ? 1 : outgoing(state));
    fromBoxes.set(state, { x: fromX, y, width: boxWidth, height });
    y += height + rowGap;
  }
  const fromBottom = y - rowGap;
  const frame: Box | undefined = framed
    ? { x: padding, y: top - framePadding, width: boxWidth + framePadding * 2, height: fromBottom - top + framePadding * 2 }
    : undefined;

  // The frame's arrow leaves between two statuses, nearest the frame's middle, so it is not read
  // as leaving the status beside it.
  let exitY = (top + fromBottom) / 2;
  if (frame !== undefined) {
    const gaps = [...fromBoxes.values()].slice(1).map((box) => box.y - rowGap / 2);
    exitY = gaps.reduce((best, gap) => (Math.abs(gap - exitY) < Math.abs(best - exitY) ? gap : best), gaps[0] ?? exitY);
  }

  const toBoxes = new Map<string, Box>();
  const targetHeights = targets.map((state) => heightFor(incoming(state)));
  const targetsHeight = targetHeights.reduce((sum, height) => sum + height, 0) + rowGap * (targets.length - 1);
  y = framed ? exitY - targetsHeight / 2 : top + Math.max(0, (fromBottom - top - targetsHeight) / 2);
  targets.forEach((state, index) => {
    const height = targetHeights[index] ?? boxHeight;
    toBoxes.set(state, { x: toX, y, width: boxWidth, height });
    y += height + rowGap;
  });
  const toBottom = y - rowGap;

  // Lines leave and reach each box at evenly spread points, ordered so that they cross little.
  const position = (list: string[], state: string): number => list.indexOf(state);
  const portY = (box: Box, index: number, count: number): number => box.y + (box.height * (index + 1)) / (count + 1);
  const arrows: ActionGeometry['arrows'] = [];
  if (frame !== undefined) {
    const target = toBoxes.get(targets[0] ?? '');
    if (target !== undefined) {
      arrows.push({ points: [{ x: frame.x + frame.width, y: exitY }, { x: target.x, y: target.y + target.height / 2 }], fromFrame: true });
    }
  } else {
    for (const move of moves) {
      const from = fromBoxes.get(move.from);
      const to = toBoxes.get(move.to);
      if (from === undefined || to === undefined) continue;
      const leaving = moves.filter((other) => other.from === move.from).sort((a, b) => position(targets, a.to) - position(targets, b.to));
      const arriving = moves.filter((other) => other.to === move.to).sort((a, b) => position(sources, a.from) - position(sources, b.from));
      arrows.push({
        points: [
          { x: from.x + from.width, y: portY(from, leaving.indexOf(move), leaving.length) },
          { x: to.x, y: portY(to, arriving.indexOf(move), arriving.length) },
        ],
        fromFrame: false,
      });
    }
  }

  const headingY = padding;
  const labels = headings.map((lines, index) => ({
    box: { x: index === 0 ? fromX - 3 : toX - 3, y: headingY, ...labelSize(lines) },
    lines,
  }));
  const offset = Math.min(0, ...[...toBoxes.values()].map((box) => box.y - top));
  if (offset < 0) {
    // Targets taller than the sources start above them: move everything below the headings down.
    for (const box of [...fromBoxes.values(), ...toBoxes.values(), ...(frame === undefined ? [] : [frame])]) box.y -= offset;
    for (const arrow of arrows) for (const point of arrow.points) point.y -= offset;
  }
  const height = Math.max(frame === undefined ? fromBottom : frame.y + frame.height, toBottom) - offset + padding;
  return {
    width,
    height,
    states: [
      ...[...fromBoxes].map(([state, box]) => ({ state, column: 'from' as const, box })),
      ...[...toBoxes].map(([state, box]) => ({ state, column: 'to' as const, box })),
    ],
    frame,
    arrows,
    labels,
  };
}

export function drawActionDiagram(lifecycle: Lifecycle, transition: ActionTransition, id: string): ActionDiagram {
  const geometry = layOutAction(lifecycle, transition);
  const title = `Where ${transition.action} leads, and from which statuses`;
  const description = describeTransition(transition);
  const parts = [svgOpening({ id, className: 'lifecycle-diagram action-diagram', width: geometry.width, height: geometry.height, title, description })];
  if (geometry.frame !== undefined) {
    const { x, y, width, height } = geometry.frame;
    parts.push(`<rect class="frame" x="${num(x)}" y="${num(y)}" width="${num(width)}" height="${num(height)}" rx="10"/>`);
  }
  for (const { box, lines } of geometry.labels) parts.push(labelSvg(box, lines, 'heading'));
  for (const arrow of geometry.arrows) {
    parts.push(arrowSvg(arrow.points, 'arrow'));
    const start = arrow.points[0];
    if (arrow.fromFrame && start !== undefined) parts.push(`<circle class="frame-exit" cx="${num(start.x)}" cy="${num(start.y)}" r="3.5"/>`);
  }
  for (const { state, box } of geometry.states) parts.push(stateSvg(state, box, lifecycle.finalStates.includes(state)));
  parts.push('</svg>');
  return { svg: parts.join('\n'), title, description, geometry };
}
