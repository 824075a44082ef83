import type { Box, Point } from './diagram-geometry.ts';
import { arrowhead, boundsOf, boxOutline, boxesOverlap, grow, labelSize, segmentCrossesBox } from './diagram-geometry.ts';
import type { DiagramArrow, PlacedLabel } from './lifecycle-types.ts';

/**
 * Stage 7 of the lifecycle layout (src/lib/site/diagrams/lifecycle-layout.ts): each label beside its own arrow,
 * clear of every line, arrowhead, status, frame edge and other label.
 */

/** The caption inside the frame's top edge. */
export const frameTitle = 'any status in this frame';

/** A label, the frame's caption or the frame's exit found no free place: the layout tries again with more room. */
export class LabelPlacementError extends Error {}

export interface Obstacles {
  segments: [Point, Point][];
  boxes: Box[];
}

/** Whether a label box would cover a line, an arrowhead, a status, a frame edge or another label. */
function isFree(box: Box, obstacles: Obstacles): boolean {
  const margin = grow(box, 2);
  return !obstacles.segments.some(([a, b]) => segmentCrossesBox(a, b, margin)) && !obstacles.boxes.some((other) => boxesOverlap(margin, other));
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

/** An arrow's label as lines: one per action, a long name broken after its underscores. */
export function labelLines(actions: string[], lineLength: number): string[] {
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

/** Everything a label must keep clear of: lines, arrowheads, the frame's exit, statuses. */
export function obstaclesOf(arrows: DiagramArrow[], boxes: Map<string, Box>, finalStates: string[]): Obstacles {
  const obstacles: Obstacles = { segments: [], boxes: [] };
  for (const arrow of arrows) {
    arrow.points.slice(0, -1).forEach((a, index) => obstacles.segments.push([a, arrow.points[index + 1] ?? a]));
    const tip = arrow.points.at(-1);
    const before = arrow.points.at(-2);
    if (tip !== undefined && before !== undefined) obstacles.boxes.push(boundsOf(arrowhead(before, tip)));
    const start = arrow.points[0];
    if (arrow.fromFrame && start !== undefined) obstacles.boxes.push({ x: start.x - 4, y: start.y - 4, width: 8, height: 8 });
  }
  for (const [state, box] of boxes) obstacles.boxes.push(grow(box, finalStates.includes(state) ? 6 : 2));
  return obstacles;
}

/** Stage 7: the frame's caption, then each arrow's label beside its own arrow, clear of everything else. */
export function placeLabels(
  arrows: DiagramArrow[],
  obstacles: Obstacles,
  frameBox: Box | undefined,
  canvas: Box,
  textOf: (arrow: DiagramArrow) => string[],
  lenient: boolean,
): { labels: PlacedLabel[]; frameCaption: Box | undefined } {
  let frameCaption: Box | undefined;
  if (frameBox !== undefined) {
    obstacles.segments.push(...boxOutline(frameBox));
    const size = labelSize([frameTitle]);
    const candidates = [
      { x: frameBox.x + 8, y: frameBox.y + 5, ...size },
      { x: frameBox.x + frameBox.width - 8 - size.width, y: frameBox.y + 5, ...size },
    ];
    frameCaption = candidates.find((candidate) => isFree(candidate, obstacles)) ?? (lenient ? candidates[0] : undefined);
    if (frameCaption === undefined) throw new LabelPlacementError(`no room for the frame's caption`);
    obstacles.boxes.push(frameCaption);
  }
  const labels: PlacedLabel[] = [];
  for (const arrow of arrows) {
    if (arrow.labels.length === 0) continue;
    const lines = textOf(arrow);
    const candidates = labelCandidates(arrow.points, labelSize(lines));
    const inside = (candidate: Box): boolean =>
      candidate.x >= 1 && candidate.y >= 1 && candidate.x + candidate.width <= canvas.width - 1 && candidate.y + candidate.height <= canvas.height - 1;
    const box =
      candidates.find((candidate) => inside(candidate) && isFree(candidate, obstacles)) ?? (lenient ? (candidates.find(inside) ?? candidates[0]) : undefined);
    if (box === undefined) throw new LabelPlacementError(`no free place for the label ${lines.join(', ')}`);
    labels.push({ box, lines });
    obstacles.boxes.push(box);
  }
  return { labels, frameCaption };
}
