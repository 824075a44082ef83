/**
 * The lifecycle diagrams measured as drawn: the SVG each one writes is read back and its label
 * boxes are checked against every line, arrowhead, status and other label, on the project's
 * lifecycle and on a larger one with statuses and actions the contract does not have, so a layout
 * tuned to the one document cannot pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drawActionDiagram } from '../../src/lib/site/diagrams/action-diagram.ts';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { lifecycleEdges } from '../../src/lib/contract/lifecycle.ts';
import type { Lifecycle } from '../../src/lib/contract/model.ts';
import { drawStateDiagram } from '../../src/lib/site/diagrams/state-diagram.ts';
import { bundledDocument } from '../support/reference-fixture.ts';

interface Point {
  x: number;
  y: number;
}
interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const documentLifecycle = readReferenceModel(bundledDocument()).lifecycle;

/** The document's lifecycle with a draft status before it and a suspension beside it. */
function largerLifecycle(): Lifecycle {
  const lifecycle = structuredClone(documentLifecycle);
  lifecycle.states = ['draft', ...lifecycle.states, 'suspended'];
  lifecycle.transitions = lifecycle.transitions.map((transition) =>
    transition.kind === 'chosen'
      ? { ...transition, moves: [...transition.moves, { from: 'suspended', to: ['active', 'cancelled'] }] }
      : transition,
  );
  lifecycle.transitions.push(
    { kind: 'fixed', action: 'submit_draft', from: ['draft'], to: 'pending' },
    { kind: 'fixed', action: 'suspend_subscription', from: ['trial', 'active', 'on-hold'], to: 'suspended' },
    { kind: 'fixed', action: 'lift_suspension', from: ['suspended'], to: 'active' },
  );
  return lifecycle;
}

/** Three more actions from active to on-hold: five actions on one arrow. */
function fiveOnOneArrow(): Lifecycle {
  const lifecycle = structuredClone(documentLifecycle);
  for (const reason of ['travel', 'payment_dispute', 'stock_shortage']) {
    lifecycle.transitions.push({ kind: 'fixed', action: `hold_for_${reason}`, from: ['active'], to: 'on-hold' });
  }
  return lifecycle;
}

/** Forty fixed actions, each making one of the moves `change_status` makes, spread over all of them. */
function fortyOverTheChosenMoves(): Lifecycle {
  const lifecycle = structuredClone(documentLifecycle);
  const moves = lifecycle.transitions.flatMap((transition) =>
    transition.kind === 'chosen' ? transition.moves.flatMap((move) => move.to.map((to) => ({ from: move.from, to }))) : [],
  );
  for (let index = 0; index < 40 && moves.length > 0; index += 1) {
    const move = moves[index % moves.length] as { from: string; to: string };
    lifecycle.transitions.push({ kind: 'fixed', action: `move_${index + 1}_${move.from}_to_${move.to}`.replaceAll('-', '_'), from: [move.from], to: move.to });
  }
  return lifecycle;
}

/** 200 actions: copies of the fixed ones, as `npm run bench:scale` adds them to the contract. */
function twoHundredActions(): Lifecycle {
  const lifecycle = structuredClone(documentLifecycle);
  const fixed = documentLifecycle.transitions.filter((transition) => transition.kind === 'fixed');
  for (let index = 0; lifecycle.transitions.length < 200 && fixed.length > 0; index += 1) {
    const template = fixed[index % fixed.length] as (typeof fixed)[number];
    lifecycle.transitions.push({ ...structuredClone(template), action: `${template.action}_${Math.floor(index / fixed.length) + 2}` });
  }
  return lifecycle;
}

const lifecycles: [string, Lifecycle][] = [
  ['the document', documentLifecycle],
  ['a larger lifecycle', largerLifecycle()],
  ['five actions on one arrow', fiveOnOneArrow()],
  ['forty actions over the moves of change_status', fortyOverTheChosenMoves()],
  ['200 actions', twoHundredActions()],
];

describe('the made-up lifecycles', () => {
  test('have the actions their names claim', () => {
    const edges = (lifecycle: Lifecycle) => lifecycleEdges(lifecycle);
    const activeToOnHold = edges(fiveOnOneArrow()).find((edge) => edge.from === 'active' && edge.to === 'on-hold');
    assert.equal(activeToOnHold?.actions.filter((action) => action !== 'change_status').length, 5);
    assert.equal(fortyOverTheChosenMoves().transitions.length, documentLifecycle.transitions.length + 40);
    assert.equal(twoHundredActions().transitions.length, 200);
  });
});

function attribute(element: string, name: string): number {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(element);
  assert.ok(match?.[1] !== undefined, `${name} on ${element}`);
  return Number(match[1]);
}

function rectOf(element: string): Rect {
  return { x: attribute(element, 'x'), y: attribute(element, 'y'), width: attribute(element, 'width'), height: attribute(element, 'height') };
}

function pathPoints(d: string): Point[] {
  return [...d.matchAll(/[ML]\s*(-?[\d.]+)\s+(-?[\d.]+)/g)].map(([, x, y]) => ({ x: Number(x), y: Number(y) }));
}

/** What an SVG draws, read from its markup. */
function readSvg(svg: string) {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  assert.ok(viewBox, 'the SVG has a viewBox');
  const elements = (pattern: RegExp): string[] => [...svg.matchAll(pattern)].map(([element]) => element);
  return {
    width: Number(viewBox[1]),
    height: Number(viewBox[2]),
    lines: elements(/<path class="arrow[^"]*" d="[^"]*"\/>/g).map((element) => pathPoints(/d="([^"]*)"/.exec(element)?.[1] ?? '')),
    heads: elements(/<path class="arrowhead" d="[^"]*"\/>/g).map((element) => pathPoints(/d="([^"]*)"/.exec(element)?.[1] ?? '')),
    labels: elements(/<rect class="label-backdrop"[^>]*\/>/g).map(rectOf),
    states: elements(/<g class="state[^"]*"><rect [^>]*\/>/g).map((element) => rectOf(element.replace(/^<g[^>]*>/, ''))),
    frames: elements(/<rect class="frame"[^>]*\/>/g).map(rectOf),
    exits: elements(/<circle class="frame-exit"[^>]*\/>/g).map((element) => ({ x: attribute(element, 'cx'), y: attribute(element, 'cy') })),
  };
}

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function inside(point: Point, rect: Rect): boolean {
  return point.x > rect.x && point.x < rect.x + rect.width && point.y > rect.y && point.y < rect.y + rect.height;
}

function rectCorners(rect: Rect): Point[] {
  return [
    { x: rect.x, y: rect.y },
    { x: rect.x + rect.width, y: rect.y },
    { x: rect.x + rect.width, y: rect.y + rect.height },
    { x: rect.x, y: rect.y + rect.height },
  ];
}

/** A line or polygon edge touches a rectangle if an end lies inside it or it crosses one of its edges. */
function segmentTouchesRect(a: Point, b: Point, rect: Rect): boolean {
  if (inside(a, rect) || inside(b, rect)) return true;
  const corners = rectCorners(rect);
  return corners.some((corner, index) => segmentsMeet(a, b, corner, corners[(index + 1) % 4] ?? corner));
}

function polygonTouchesRect(polygon: Point[], rect: Rect): boolean {
  return polygon.some((point, index) => segmentTouchesRect(point, polygon[(index + 1) % polygon.length] ?? point, rect));
}

function rectsOverlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function within(inner: Rect, outer: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

function segments(points: Point[]): [Point, Point][] {
  return points.slice(0, -1).map((point, index) => [point, points[index + 1] ?? point]);
}

/** Every way a label of this drawing covers something, in words; empty when none does. */
function labelProblems(drawing: ReturnType<typeof readSvg>): string[] {
  const problems: string[] = [];
  for (const [index, label] of drawing.labels.entries()) {
    const where = `label ${index} at ${label.x},${label.y}`;
    for (const line of drawing.lines) {
      if (segments(line).some(([a, b]) => segmentTouchesRect(a, b, label))) problems.push(`${where} covers a line`);
    }
    for (const head of drawing.heads) if (polygonTouchesRect(head, label)) problems.push(`${where} covers an arrowhead`);
    for (const state of drawing.states) if (rectsOverlap(state, label)) problems.push(`${where} covers a status`);
    for (const other of drawing.labels.slice(index + 1)) if (rectsOverlap(other, label)) problems.push(`${where} covers another label`);
    for (const frame of drawing.frames) {
      const outline = rectCorners(frame);
      if (outline.some((corner, side) => segmentTouchesRect(corner, outline[(side + 1) % 4] ?? corner, label))) {
        problems.push(`${where} straddles the frame`);
      }
    }
  }
  return problems;
}

for (const [name, lifecycle] of lifecycles) {
  describe(`the state diagram of ${name}`, () => {
    const diagram = drawStateDiagram(lifecycle, 'test');

    for (const variant of ['wide', 'narrow'] as const) {
      const { svg, geometry } = diagram[variant];
      const drawing = readSvg(svg);

      test(`${variant}: draws every status once, inside the picture`, () => {
        assert.equal(drawing.states.length, lifecycle.states.length);
        const canvas = { x: 0, y: 0, width: drawing.width, height: drawing.height };
        for (const state of drawing.states) assert.ok(within(state, canvas), `${JSON.stringify(state)} lies inside the viewBox`);
        for (const label of drawing.labels) assert.ok(within(label, canvas), `the label at ${label.x},${label.y} lies inside the viewBox`);
      });

      test(`${variant}: no label covers a line, an arrowhead, a status, the frame or another label`, () => {
        assert.ok(drawing.labels.length > 0 && drawing.lines.length > 0, 'there is something to measure');
        assert.equal(geometry.crowded, false, 'every label found a free place without the last resort');
        assert.deepEqual(labelProblems(drawing), []);
      });

      test(`${variant}: an action several statuses accept alike leaves their frame, not one of them`, () => {
        assert.equal(drawing.frames.length, 1, 'one frame');
        const [frame] = drawing.frames;
        assert.ok(frame !== undefined && geometry.frame !== undefined);
        const members = new Set(geometry.frame.members);
        const framed = [...geometry.states].filter(([state]) => members.has(state)).map(([, box]) => box);
        for (const box of framed) assert.ok(within(box, frame), 'every framed status lies in the frame');
        for (const [state, box] of geometry.states) {
          if (!members.has(state)) assert.ok(!rectsOverlap(box, frame), `${state}, outside the group, lies outside the frame`);
        }
        const frameArrows = geometry.arrows.filter((arrow) => arrow.fromFrame);
        assert.ok(frameArrows.length > 0, 'some arrow leaves the frame');
        const lowest = Math.max(...framed.map((box) => box.y));
        for (const arrow of frameArrows) {
          const [start] = arrow.points;
          assert.ok(start !== undefined);
          const onEdge =
            (Math.abs(start.y - frame.y - frame.height) < 0.1 || Math.abs(start.y - frame.y) < 0.1) && start.x >= frame.x && start.x <= frame.x + frame.width;
          assert.ok(onEdge, `${arrow.labels.join(', ')} starts on the frame's edge`);
          for (const box of framed.filter((candidate) => candidate.y === lowest)) {
            assert.ok(start.x < box.x || start.x > box.x + box.width, `${arrow.labels.join(', ')} does not start under a status`);
          }
          assert.ok(drawing.exits.some((exit) => Math.abs(exit.x - start.x) < 0.1 && Math.abs(exit.y - start.y) < 0.1), 'a dot marks where it leaves');
        }
        // Every fixed action whose accepted statuses are exactly the frame's is one of its arrows.
        for (const transition of lifecycle.transitions) {
          if (transition.kind !== 'fixed' || transition.from.length !== members.size || !transition.from.every((state) => members.has(state))) continue;
          assert.ok(frameArrows.some((arrow) => arrow.labels.includes(transition.action) && arrow.to === transition.to), transition.action);
        }
      });
    }

    test('no line runs through a status box: a line only starts and ends on the edge of one', () => {
      for (const variant of ['wide', 'narrow'] as const) {
        const drawing = readSvg(diagram[variant].svg);
        // One pixel in from each edge: a line that starts or ends on a box's edge does not count.
        const interiors = drawing.states.map((box) => ({ x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2 }));
        for (const line of drawing.lines) {
          for (const [a, b] of segments(line)) {
            const crossed = interiors.find((interior) => segmentTouchesRect(a, b, interior));
            assert.equal(crossed, undefined, `${variant}: the line from ${a.x},${a.y} to ${b.x},${b.y} runs through the status at ${crossed?.x},${crossed?.y}`);
          }
        }
      }
    });

    test('the narrow drawing is narrower than the wide one and, for the document, fits a phone at its drawn size', () => {
      assert.ok(diagram.narrow.geometry.width < diagram.wide.geometry.width);
      // 358 px is the text column of a 390 px window; a lifecycle with more side lanes than the
      // document's may need more, and then shrinks on a phone.
      if (lifecycle === documentLifecycle) assert.ok(diagram.narrow.geometry.width <= 358, `${diagram.narrow.geometry.width} px wide`);
    });

    test('every arrow of the lifecycle is drawn, once as an arrow of its own or as one of the frame', () => {
      const labelled = new Set(diagram.wide.geometry.arrows.flatMap((arrow) => arrow.labels));
      for (const transition of lifecycle.transitions) {
        if (transition.kind === 'fixed') assert.ok(labelled.has(transition.action), `${transition.action} labels an arrow`);
      }
    });

    test('every fixed action is named on the drawing or in the key, and each number on a drawing is in the key', () => {
      const named = new Set([...diagram.keys.flatMap((key) => key.actions)]);
      for (const variant of ['wide', 'narrow'] as const) {
        const { labels, labelStyle } = diagram[variant].geometry;
        assert.equal(labelStyle, diagram.wide.geometry.labelStyle, 'both variants label alike');
        const texts = labels.map((label) => label.lines.join(''));
        for (const text of texts.filter((candidate) => /^\d+$/.test(candidate))) {
          assert.ok(diagram.keys.some((key) => key.key === text), `${variant}: the number ${text} is in the key`);
        }
        const drawnNames = labels.flatMap((label) => label.lines).join('\n');
        for (const transition of lifecycle.transitions) {
          if (transition.kind !== 'fixed' || named.has(transition.action)) continue;
          // A narrow label breaks a long name after an underscore, so the name's words are looked for in order.
          const pieces = transition.action.split(/(?<=_)/);
          assert.ok(pieces.every((piece) => drawnNames.includes(piece)), `${variant}: ${transition.action} is written on an arrow or given in the key`);
        }
      }
      // Each action of each key, as a code element or, with many actions, in the key's one run of names.
      const keyList = diagram.html.slice(diagram.html.indexOf('<ol class="lifecycle-keys">'));
      for (const action of diagram.keys.flatMap((key) => key.actions)) {
        assert.match(keyList, new RegExp(`[>\\s]${action}(?=[<,])`), `the key lists ${action}`);
      }
      if (lifecycle === documentLifecycle) assert.deepEqual(diagram.keys, [], 'the arrows of the document carry their names');
    });
  });

  describe(`the action diagrams of ${name}`, () => {
    for (const transition of lifecycle.transitions) {
      test(`${transition.action}: its statuses, its arrows and headings that cover none of them`, () => {
        const diagram = drawActionDiagram(lifecycle, transition, 'test');
        const drawing = readSvg(diagram.svg);
        assert.match(diagram.svg, /^<svg [^>]*role="img"[^>]*aria-labelledby="test-title test-desc"/);
        assert.ok(diagram.description.includes(transition.action));
        assert.ok(drawing.width <= 358, `${drawing.width} px wide fits a phone`);
        const canvas = { x: 0, y: 0, width: drawing.width, height: drawing.height };
        for (const state of drawing.states) assert.ok(within(state, canvas), 'every status lies inside the viewBox');
        assert.deepEqual(labelProblems(drawing), []);
        const accepted = transition.kind === 'fixed' ? transition.from : transition.moves.map((move) => move.from);
        const from = diagram.geometry.states.filter((state) => state.column === 'from').map((state) => state.state);
        assert.deepEqual([...from].sort(), [...accepted].sort());
        const moveCount = transition.kind === 'fixed' ? 1 : transition.moves.reduce((sum, move) => sum + move.to.length, 0);
        assert.equal(drawing.heads.length, moveCount);
        if (transition.kind === 'fixed' && transition.from.length > 1) {
          const [frame] = drawing.frames;
          const [start] = diagram.geometry.arrows[0]?.points ?? [];
          assert.ok(frame !== undefined && start !== undefined);
          assert.ok(Math.abs(start.x - frame.x - frame.width) < 0.1, 'the arrow starts on the frame');
          for (const state of diagram.geometry.states.filter((candidate) => candidate.column === 'from')) {
            assert.ok(start.y < state.box.y || start.y > state.box.y + state.box.height, `the arrow does not leave beside ${state.state}`);
          }
        }
      });
    }
  });
}
