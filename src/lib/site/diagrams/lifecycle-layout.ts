import type { Lifecycle } from '../../contract/model.ts';
import { lifecycleEdges } from '../../contract/lifecycle.ts';
import { frameTitle, labelLines, LabelPlacementError, obstaclesOf, placeLabels } from './lifecycle-labels.ts';
import { placeStatuses, statusQueries } from './lifecycle-rows.ts';
import { drawFrameArrows, drawRoutes, routeEdges, spreadHorizontally, spreadPorts, type Port } from './lifecycle-routes.ts';
import { labelStyles, type ArrowKey, type ArrowPlan, type DiagramArrow, type DiagramVariant, type DrawnEdge, type LabelStyle, type LifecycleGeometry, type VariantSettings } from './lifecycle-types.ts';

/**
 * Where the statuses, arrows and labels of the lifecycle diagram sit, in stages: which arrows to
 * draw (the same for both variants), statuses in rows, routes between them, the points of each
 * arrow, then the labels. No layout library: the graph is small, and the stages are short enough
 * to read. The layout checks itself: no label may cover an arrow, an arrowhead, a status or
 * another label. When the actions' names find no such place, arrows are labelled with numbers
 * instead, named in a key beside the drawing (see `layOutLifecycle`); a contract the gate accepts
 * always draws, so adding actions never stops the build.
 */

/** Most actions an arrow names in the mixed style; an arrow with more is numbered. */
const namesPerArrow = 2;

function isKeyed(actions: readonly string[], style: LabelStyle): boolean {
  return style === 'keys' || (style === 'mixed' && actions.length > namesPerArrow);
}

const variants: Record<DiagramVariant, VariantSettings> = {
  wide: { perRow: 1000, lineLength: 1000, columnGap: 96, boxPadding: 28, laneSpacing: 18, padding: 12, framePadding: 12 },
  narrow: { perRow: 2, lineLength: 12, columnGap: 52, boxPadding: 12, laneSpacing: 12, padding: 4, framePadding: 8 },
};

const firstRowGap = 64;
/** How often the layout widens its gaps before it tries the next way of labelling. */
const attempts = 12;

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
 * Stage 1: the arrows. An edge is drawn on its own unless the frame's arrow says it: the fixed
 * actions it carries beyond the frame's, if any, label it.
 */
export function planArrows(lifecycle: Lifecycle): ArrowPlan {
  const chosen = new Set(lifecycle.transitions.filter((transition) => transition.kind === 'chosen').map((transition) => transition.action));
  const group = findFrameGroup(lifecycle);
  const members = new Set(group?.members ?? []);
  const frameActions = new Set([...(group?.exits.values() ?? [])].flat());
  const edges = lifecycleEdges(lifecycle);
  const drawn: DrawnEdge[] = [];
  for (const edge of edges) {
    const fixedLabels = edge.actions.filter((action) => !chosen.has(action));
    const byFrame = members.has(edge.from) && group?.exits.has(edge.to) === true;
    const labels = byFrame ? fixedLabels.filter((action) => !frameActions.has(action)) : fixedLabels;
    if (byFrame && labels.length === 0) continue;
    drawn.push({ edge, labels, dashed: labels.length === 0 });
  }
  return { edges, members, drawn, frameExits: [...(group?.exits ?? [])], hasFrame: group !== undefined };
}

function arrowIdentity(from: string | undefined, to: string): string {
  return `${from ?? ''}\u0000${to}`;
}

/** A number for every arrow the style numbers, in the order of the plan, the same in both variants. */
export function arrowKeys(plan: ArrowPlan, style: LabelStyle): ArrowKey[] {
  const labelled: Omit<ArrowKey, 'key'>[] = [
    ...plan.drawn.filter(({ labels }) => labels.length > 0).map(({ edge, labels }) => ({ from: edge.from, to: edge.to, actions: labels })),
    ...plan.frameExits.map(([to, actions]) => ({ to, actions })),
  ];
  return labelled.filter(({ actions }) => isKeyed(actions, style)).map((arrow, index) => ({ key: String(index + 1), ...arrow }));
}

interface LayoutRequest {
  lifecycle: Lifecycle;
  plan: ArrowPlan;
  variant: DiagramVariant;
  labelStyle: LabelStyle;
  keys: ArrowKey[];
  rowGap: number;
  extra: number;
  /** The last resort: a label with no free place takes its first place inside the picture. */
  lenient: boolean;
}

/** One attempt at a layout; throws `LabelPlacementError` when a label finds no free place. */
function layOut({ lifecycle, plan, variant, labelStyle, keys, rowGap, extra, lenient }: LayoutRequest): LifecycleGeometry {
  const settings = variants[variant];
  const placement = placeStatuses(lifecycle, plan, settings, rowGap, settings.columnGap + extra);
  const at = statusQueries(lifecycle, placement);
  const { routes, ...lanes } = routeEdges(plan, placement, at);
  const { width, frameBox } = spreadHorizontally(routes, lanes, placement, at, settings, extra, plan.hasFrame);

  // Frame arrows reserve their place on their target's top first, estimated from the target.
  const framePorts = plan.frameExits.map(([to, actions]) => {
    const port: Port = { box: to, side: 'top', key: at.centreX(to), tieBreak: -1 };
    return { to, actions, port };
  });
  spreadPorts([...routes.flatMap((route) => [route.start, route.end]), ...framePorts.map(({ port }) => port)], placement.boxes);
  const arrows = drawRoutes(routes, rowGap);
  if (frameBox !== undefined) arrows.push(...drawFrameArrows(frameBox, framePorts, arrows, placement, at, lenient));

  const height = placement.coreHeight + settings.padding;
  const keyOf = new Map(keys.map((key) => [arrowIdentity(key.from, key.to), key.key]));
  const textOf = (arrow: DiagramArrow): string[] => {
    const key = keyOf.get(arrowIdentity(arrow.from, arrow.to));
    return key === undefined ? labelLines(arrow.labels, settings.lineLength) : [key];
  };
  const obstacles = obstaclesOf(arrows, placement.boxes, lifecycle.finalStates);
  const { labels, frameCaption } = placeLabels(arrows, obstacles, frameBox, { x: 0, y: 0, width, height }, textOf, lenient);
  const frame =
    frameBox !== undefined && frameCaption !== undefined
      ? { box: frameBox, members: placement.inFrame, title: { box: frameCaption, lines: [frameTitle] } }
      : undefined;
  return { width, height, states: placement.boxes, frame, arrows, labels, labelStyle, crowded: lenient };
}

/** How much wider the columns grow on each attempt: the narrow variant keeps its width while names are tried, as a phone has no more. */
function widening(variant: DiagramVariant, style: LabelStyle, attempt: number): number {
  if (variant === 'wide') return attempt * 12;
  return style === 'names' ? 0 : attempt * 4;
}

/**
 * The layout of one variant. Gaps widen until every label finds a free place, first with the
 * actions' names, then with numbers on the arrows that carry more than a few actions, then with
 * numbers on every arrow, which get many more widenings, since wider gaps leave more room beside
 * every line. Should even that fail, the diagram is drawn crowded rather than refused: the
 * layout never stops a build over a lifecycle the gate accepts. `labelStyle` forces one way of
 * labelling, so that both variants can use the same.
 */
export function layOutLifecycle(lifecycle: Lifecycle, variant: DiagramVariant, labelStyle?: LabelStyle): LifecycleGeometry {
  const plan = planArrows(lifecycle);
  const styles: readonly LabelStyle[] = labelStyle === undefined ? labelStyles : [labelStyle];
  let problem = '';
  for (const style of styles) {
    const keys = arrowKeys(plan, style);
    const tries = style === 'keys' ? attempts * 20 : attempts;
    for (let attempt = 0; attempt < tries; attempt += 1) {
      try {
        return layOut({ lifecycle, plan, variant, labelStyle: style, keys, rowGap: firstRowGap + attempt * 20, extra: widening(variant, style, attempt), lenient: false });
      } catch (error) {
        if (!(error instanceof LabelPlacementError)) throw error;
        problem = error.message;
      }
    }
  }
  // Drawn rather than refused: a contract the gate accepts always builds. The build says so.
  const last = styles.at(-1) ?? 'keys';
  console.warn(`The ${variant} state diagram is crowded: ${problem}; a label may cover a line.`);
  return layOut({ lifecycle, plan, variant, labelStyle: last, keys: arrowKeys(plan, last), rowGap: firstRowGap, extra: 0, lenient: true });
}
