import type { ActionTransition, Lifecycle } from '../../contract/model.ts';
import { escapeMarkup } from '../../http/escape-markup.ts';
import { arrowSvg, labelSvg, num, stateSvg, svgOpening } from './diagram-geometry.ts';
import { arrowKeys, layOutLifecycle, planArrows } from './lifecycle-layout.ts';
import { labelStyles, type ArrowKey, type DiagramVariant, type LabelStyle, type LifecycleGeometry } from './lifecycle-types.ts';
import { listInWords } from '../../prose.ts';
import { isLongList } from '../long-lists.ts';

export type { ArrowKey, DiagramArrow, DiagramFrame, DiagramVariant, LifecycleGeometry, PlacedLabel } from './lifecycle-types.ts';
export { layOutLifecycle } from './lifecycle-layout.ts';

/**
 * The lifecycle drawn as SVG at build time: statuses in rows from the first status down, an arrow
 * for every status change, and a text alternative that says the same in words. An action that
 * several statuses accept alike gets one arrow out of a frame drawn around those statuses. No
 * client script: a page must read without JavaScript. Two variants are drawn, a wide one and a
 * narrow one for phones, both at the same text size, laid out by src/lib/site/diagrams/lifecycle-layout.ts,
 * which keeps every label off the arrows. An arrow whose actions' names find no free place is
 * numbered instead, and the key below the drawing names its actions.
 */
export interface StateDiagram {
  /** Both variants, the rule that shows the one that fits, and the key when arrows are numbered, ready for a page. */
  html: string;
  wide: DrawnVariant;
  narrow: DrawnVariant;
  /** The accessible name, also each SVG's `<title>`. */
  title: string;
  /** Every transition in words, also each SVG's `<desc>`. */
  description: string;
  /** What the picture's conventions mean, for the visible caption. */
  legend: string;
  /** The numbers on the arrows and the actions each stands for; empty when the arrows carry names. */
  keys: ArrowKey[];
}

export interface DrawnVariant {
  svg: string;
  geometry: LifecycleGeometry;
}

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

/**
 * The key of numbered arrows as an ordered list: item N names the actions of the arrow numbered N.
 * With many actions (src/lib/site/long-lists.ts) each item's names are one run of text rather
 * than a code element a name; the transition table links every action.
 */
function keyList(keys: ArrowKey[]): string {
  if (keys.length === 0) return '';
  const compact = isLongList(keys.reduce((sum, key) => sum + key.actions.length, 0));
  const names = (actions: string[]): string =>
    compact ? `<samp class="action-names">${escapeMarkup(actions.join(', '))}</samp>` : actions.map((action) => `<code>${escapeMarkup(action)}</code>`).join(', ');
  const items = keys.map(({ from, to, actions }) => `<li>${escapeMarkup(from === undefined ? `any status in the frame → ${to}` : `${from} → ${to}`)}: ${names(actions)}</li>`);
  return `<ol class="lifecycle-keys">${items.join('')}</ol>`;
}

export function drawStateDiagram(lifecycle: Lifecycle, idPrefix = 'lifecycle'): StateDiagram {
  const title = 'Subscription lifecycle: statuses and the actions that move between them';
  const description = describeLifecycle(lifecycle);
  const draw = (variant: DiagramVariant, labelStyle?: LabelStyle): DrawnVariant => {
    const geometry = layOutLifecycle(lifecycle, variant, labelStyle);
    return { geometry, svg: variantSvg(lifecycle, geometry, `${idPrefix}-${variant}`, variant, title, description) };
  };
  let wide = draw('wide');
  let narrow = draw('narrow');
  // Both variants label alike, so that one key serves both: the one that needed more numbers sets the style.
  const labelStyle = labelStyles[Math.max(labelStyles.indexOf(wide.geometry.labelStyle), labelStyles.indexOf(narrow.geometry.labelStyle))] ?? 'keys';
  if (wide.geometry.labelStyle !== labelStyle) wide = draw('wide', labelStyle);
  if (narrow.geometry.labelStyle !== labelStyle) narrow = draw('narrow', labelStyle);
  const keys = arrowKeys(planArrows(lifecycle), labelStyle);

  const chosenActions = lifecycle.transitions.filter((transition) => transition.kind === 'chosen').map((transition) => transition.action);
  const legend = [
    'Each box is a status; arrows point from the status an action accepts to the status it leads to.',
    wide.geometry.frame !== undefined ? 'An arrow that leaves the dashed frame, from a dot on its edge, applies to every status inside it.' : '',
    chosenActions.length > 0
      ? `Dashed arrows are moves only ${listInWords(chosenActions, 'and')} makes; it can also make moves drawn solid, as the transition table lists.`
      : '',
    lifecycle.finalStates.length > 0 ? 'A double border marks a final status.' : '',
    keys.length > 0 ? 'A number on an arrow stands for the actions the list below the drawing gives under that number.' : '',
  ]
    .filter(Boolean)
    .join(' ');

  // The wide drawing shows while its container holds it at full size; below that the narrow one
  // does, so the text never shrinks below the size it is drawn at.
  const switchRule = `<style>@container lifecycle-diagram (max-width: ${num(Math.ceil(wide.geometry.width) - 0.02)}px) { .lifecycle-variants > .variant-wide { display: none; } .lifecycle-variants > .variant-narrow { display: block; } }</style>`;
  const html = [switchRule, `<div class="lifecycle-variants">`, wide.svg, narrow.svg, `</div>`, keyList(keys)].filter(Boolean).join('\n');
  return { html, wide, narrow, title, description, legend, keys };
}
