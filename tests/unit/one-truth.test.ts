import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import { actionsThatChange } from '../../src/lib/contract/lifecycle.ts';
import { refusalDetails } from '../../src/lib/contract/refusal-details.ts';
import { throttledResponse } from '../../src/lib/contract/response-lookups.ts';
import { retryAfterHeader } from '../../src/lib/contract/response-names.ts';
import { bundledDocument, projectDirectory } from '../support/reference-fixture.ts';

/**
 * Contradictions a reader would meet between the document and the pages, or inside the
 * document, each checked where a test can see it.
 */

const model = readReferenceModel(bundledDocument());
const guidesDirectory = path.join(projectDirectory, 'src/content/docs');

/** The sentences of every guide, with the file they are in; MDX line breaks inside a sentence are joined. */
function guideSentences(): { file: string; sentence: string }[] {
  return readdirSync(guidesDirectory)
    .filter((name) => name.endsWith('.mdx'))
    .flatMap((name) => {
      const text = readFileSync(path.join(guidesDirectory, name), 'utf8').replace(/^---[\s\S]*?---/, '');
      return text
        .replace(/\s*\n\s*/g, ' ')
        .split(/(?<=[.:;!?])\s+(?=[A-Z<*-])|\s-\s|\s#{2,6}\s|\s\|\s/)
        .map((sentence) => ({ file: name, sentence }));
    });
}

describe('one truth about Retry-After', () => {
  const header = throttledResponse(model.responses).headers.find((candidate) => candidate.name === retryAfterHeader);
  const aboutTheHeader = guideSentences().filter(({ sentence }) => sentence.includes('name="retryAfterHeader"'));

  test('[7.1] the guides say it is always sent exactly when the document marks it required', () => {
    assert.ok(header, 'the throttled response declares Retry-After');
    assert.ok(aboutTheHeader.length > 0, 'the guides speak of the header');
    const promises = aboutTheHeader.filter(({ sentence }) => /\balways\b|\bevery (throttled|429)\b|\bguarantee/i.test(sentence));
    const doubts = aboutTheHeader.filter(({ sentence }) => /\bwithout\b|\bmissing\b|\bcannot promise\b|\bnormally\b/i.test(sentence));
    if (header.required) {
      assert.deepEqual(doubts, [], 'the document requires the header, yet a guide doubts it');
    } else {
      assert.deepEqual(promises, [], 'the document does not require the header, yet a guide promises it');
      assert.ok(doubts.some(({ file }) => file === 'errors-and-rate-limits.mdx'), 'the errors guide says what to do without the header');
    }
  });

  test('the header’s own description agrees with its `required`', () => {
    assert.ok(header, 'the throttled response declares Retry-After');
    const hedged = /cannot promise|without a readable value/i.test(header.description);
    assert.equal(hedged, !header.required, header.description);
  });
});

describe('what a refusal lists', () => {
  test('every refusal example lists exactly the actions that would change the subscription from its status', () => {
    const refusal = refusalDetails(model.responses, model.lifecycle.states);
    assert.ok(refusal.examples.length > 0);
    for (const example of refusal.examples) {
      assert.deepEqual(
        [...example.actions].sort(),
        [...actionsThatChange(model.lifecycle, example.status)].sort(),
        `the example ${example.name} for a subscription that is ${example.status}`,
      );
    }
  });

  test('leaves out an action that would only answer `changed: false`, so a final status lists none', () => {
    for (const final of model.lifecycle.finalStates) {
      assert.deepEqual(actionsThatChange(model.lifecycle, final), []);
      const leadingThere = model.lifecycle.transitions.filter((transition) => transition.kind === 'fixed' && transition.to === final);
      assert.ok(leadingThere.length > 0, `some action leads to ${final}, and succeeds there without a change`);
    }
    for (const status of model.lifecycle.states) {
      for (const action of actionsThatChange(model.lifecycle, status)) {
        const transition = model.lifecycle.transitions.find((candidate) => candidate.action === action);
        assert.ok(transition);
        if (transition.kind === 'fixed') assert.notEqual(transition.to, status, `${action} listed for ${status}, where it changes nothing`);
      }
    }
  });
});

describe('what an action’s description says', () => {
  test('names no status of the lifecycle table, which the action’s page renders from x-transitions', () => {
    for (const action of model.actions) {
      const ownWords = new Set(action.identifier.split('_'));
      const words = action.description.toLowerCase().split(/[^a-z-]+/);
      const named = model.lifecycle.states.filter((state) => words.includes(state) && !ownWords.has(state));
      assert.deepEqual(named, [], `${action.identifier}: ${action.description}`);
    }
  });

  test('claims nothing about renewals, charges or periods, which the specification does not give', () => {
    const unfounded = /\brenewals?\b(?! (order|payment))|\bcharg|\bperiod\b|\bsettled\b|\bfor good\b|\bbrought back\b/i;
    for (const action of model.actions) assert.doesNotMatch(action.description, unfounded, action.identifier);
  });
});
