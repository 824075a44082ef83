/**
 * Plane geometry and SVG writing shared by the lifecycle diagrams. Arrowheads are drawn as
 * polygons rather than SVG markers, so their exact outline is known here and a label can be
 * kept off them.
 */
import { escapeMarkup } from '../../http/escape-markup.ts';

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The drawn size of diagram text; a reader on a phone sees it at this size or larger. */
export const fontSize = 12;
/** The diagrams use a monospace font, so a text's width follows from its length. */
export const charWidth = fontSize * 0.6;
export const lineHeight = fontSize + 3;
const arrowheadLength = 10;
const arrowheadHalfWidth = 4.5;

export function textWidth(text: string): number {
  return text.length * charWidth;
}

/** The box a label of these lines needs, with a little room around the text. */
export function labelSize(lines: string[]): { width: number; height: number } {
  return { width: Math.max(...lines.map(textWidth)) + 6, height: lines.length * lineHeight + 4 };
}

export function grow(box: Box, by: number): Box {
  return { x: box.x - by, y: box.y - by, width: box.width + by * 2, height: box.height + by * 2 };
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The four edges of a box, as segments a label must not straddle. */
export function boxOutline(box: Box): [Point, Point][] {
  const corners = [
    { x: box.x, y: box.y },
    { x: box.x + box.width, y: box.y },
    { x: box.x + box.width, y: box.y + box.height },
    { x: box.x, y: box.y + box.height },
  ] as const;
  return corners.map((corner, index) => [corner, corners[(index + 1) % 4] ?? corner]);
}

/** Whether the segment from `a` to `b` has any point inside `box` (Liang–Barsky clipping). */
export function segmentCrossesBox(a: Point, b: Point, box: Box): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let enter = 0;
  let leave = 1;
  const sides: [number, number][] = [
    [-dx, a.x - box.x],
    [dx, box.x + box.width - a.x],
    [-dy, a.y - box.y],
    [dy, box.y + box.height - a.y],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) enter = Math.max(enter, t);
    else leave = Math.min(leave, t);
    if (enter > leave) return false;
  }
  return true;
}

/** The triangle drawn at the end of a path whose last segment runs from `from` to `tip`. */
export function arrowhead(from: Point, tip: Point): [Point, Point, Point] {
  const length = Math.hypot(tip.x - from.x, tip.y - from.y) || 1;
  const ux = (tip.x - from.x) / length;
  const uy = (tip.y - from.y) / length;
  const baseX = tip.x - ux * arrowheadLength;
  const baseY = tip.y - uy * arrowheadLength;
  return [
    tip,
    { x: baseX - uy * arrowheadHalfWidth, y: baseY + ux * arrowheadHalfWidth },
    { x: baseX + uy * arrowheadHalfWidth, y: baseY - ux * arrowheadHalfWidth },
  ];
}

export function boundsOf(points: Point[]): Box {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** Where a line stops so that the arrowhead, not the line, reaches the tip. */
function shortened(points: Point[]): Point[] {
  const tip = points.at(-1);
  const before = points.at(-2);
  if (tip === undefined || before === undefined) return points;
  const length = Math.hypot(tip.x - before.x, tip.y - before.y) || 1;
  const back = Math.min(arrowheadLength - 1, length);
  return [...points.slice(0, -1), { x: tip.x - ((tip.x - before.x) / length) * back, y: tip.y - ((tip.y - before.y) / length) * back }];
}

export function num(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** One arrow as SVG: the line through `points`, then its head. */
export function arrowSvg(points: Point[], className: string): string {
  const line = shortened(points)
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${num(point.x)} ${num(point.y)}`)
    .join(' ');
  const tip = points.at(-1);
  const before = points.at(-2);
  const head =
    tip === undefined || before === undefined
      ? ''
      : `<path class="arrowhead" d="${arrowhead(before, tip)
          .map((point, index) => `${index === 0 ? 'M' : 'L'}${num(point.x)} ${num(point.y)}`)
          .join(' ')} Z"/>`;
  return `<path class="${className}" d="${line}"/>${head}`;
}

/** A status box; a final status gets a second border around the first. */
export function stateSvg(state: string, box: Box, final: boolean): string {
  return [
    `<g class="state${final ? ' final' : ''}">`,
    `<rect x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" rx="8"/>`,
    final
      ? `<rect class="outer" x="${num(box.x - 4)}" y="${num(box.y - 4)}" width="${num(box.width + 8)}" height="${num(box.height + 8)}" rx="11"/>`
      : '',
    `<text x="${num(box.x + box.width / 2)}" y="${num(box.y + box.height / 2)}" text-anchor="middle" dominant-baseline="central">${escapeMarkup(state)}</text>`,
    `</g>`,
  ].join('');
}

/** Lines of text from the top left of `box`, on a backdrop that keeps them legible. */
export function labelSvg(box: Box, lines: string[], className = 'label'): string {
  return [
    `<rect class="label-backdrop" x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" rx="3"/>`,
    ...lines.map(
      (line, index) =>
        `<text class="${className}" x="${num(box.x + 3)}" y="${num(box.y + 2 + (index + 1) * lineHeight - 3)}">${escapeMarkup(line)}</text>`,
    ),
  ].join('');
}

/** The opening of an SVG whose accessible name is its title and whose description is its desc. */
export function svgOpening(options: { id: string; className: string; width: number; height: number; title: string; description: string }): string {
  const { id, className, width, height, title, description } = options;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="${className}" role="img" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}" aria-labelledby="${id}-title ${id}-desc">`,
    `<title id="${id}-title">${escapeMarkup(title)}</title>`,
    `<desc id="${id}-desc">${escapeMarkup(description)}</desc>`,
  ].join('\n');
}
