/**
 * The shapes the stages of the lifecycle layout hand each other (rows, routes, labels and the
 * layout that runs them), in one file of their own so that the stages import it and not each
 * other in a circle.
 */
import type { LifecycleEdge } from '../../contract/lifecycle.ts';
import type { Box, Point } from './diagram-geometry.ts';

export type DiagramVariant = 'wide' | 'narrow';

export interface DiagramArrow {
  /** The drawn line from its start to the tip of its head. */
  points: Point[];
  /** The actions the arrow stands for, whether its label names them or gives their key. */
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

/** A number on an arrow and the actions it stands for, listed beside the drawing. */
export interface ArrowKey {
  key: string;
  actions: string[];
  /** Absent for the frame's arrow. */
  from?: string;
  to: string;
}

/**
 * How arrows are labelled, tried in this order: every arrow by its actions' names; names where an
 * arrow carries few actions and a number where it carries more; a number on every arrow. A
 * number is named in the key beside the drawing.
 */
export const labelStyles = ['names', 'mixed', 'keys'] as const;
export type LabelStyle = (typeof labelStyles)[number];

/** Where everything sits: what the SVG draws and what the tests measure. */
export interface LifecycleGeometry {
  width: number;
  height: number;
  states: Map<string, Box>;
  frame: DiagramFrame | undefined;
  arrows: DiagramArrow[];
  /** Arrow labels. */
  labels: PlacedLabel[];
  labelStyle: LabelStyle;
  /** Set when even numbered arrows found no free place and a label may cover a line: no lifecycle the tests draw comes to this. */
  crowded: boolean;
}

export interface VariantSettings {
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

/** An edge drawn as an arrow of its own, with the fixed actions that label it. */
export interface DrawnEdge {
  edge: LifecycleEdge;
  labels: string[];
  dashed: boolean;
}

/** What the diagram draws, whatever the variant: the frame's group, the edges, the frame's arrows. */
export interface ArrowPlan {
  edges: LifecycleEdge[];
  members: Set<string>;
  drawn: DrawnEdge[];
  /** Where the frame's arrows lead, each with the actions it stands for; empty without a frame. */
  frameExits: [string, string[]][];
  hasFrame: boolean;
}
