import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { specifiedActions } from './eight-actions.ts';
import { branchName, problemsOf, reportedAfter, smallContract, smallStates, type EditableDocument } from './small-contract.ts';
import { transitionTableRule } from './transition-table.ts';

const [firstAction = '', secondAction = '', thirdAction = ''] = specifiedActions;
const [first, second, last] = smallStates;
const entries = (document: EditableDocument): EditableDocument => document['x-transitions'].actions;

describe('transition-table', () => {
  test('accepts an entry for each action over the states of SubscriptionStatus', () => {
    assert.deepEqual(problemsOf(transitionTableRule, smallContract()), []);
  });

  test('rejects an unknown state, at the list that names it', () => {
    const reported = reportedAfter(transitionTableRule, (document) => {
      entries(document)[firstAction].from = [first, 'paused'];
    });
    assert.equal(reported, `#/x-transitions/actions/${firstAction}/from: The "from" states of ${firstAction} names "paused", which is not a state of SubscriptionStatus (${smallStates.join(', ')}).`);
  });

  test('rejects an unknown target state, an unknown move and an unknown final state', () => {
    const reported = reportedAfter(transitionTableRule, (document) => {
      entries(document)[firstAction].to = 'live';
      entries(document)[secondAction] = { toField: 'action', moves: { [first]: ['archived'] } };
      document['x-transitions'].final.push('deleted');
    });
    assert.match(reported, new RegExp(`The "to" state of ${firstAction} names "live"`));
    assert.match(reported, new RegExp(`The moves of ${secondAction} from ${first} names "archived"`));
    assert.match(reported, /The list of final states names "deleted"/);
  });

  test('rejects an unknown action and a missing entry', () => {
    const reported = reportedAfter(transitionTableRule, (document) => {
      entries(document).refund_subscription = { from: [first], to: second };
      delete entries(document)[thirdAction];
    });
    assert.match(reported, /lists "refund_subscription", which is not one of the actions of the request body/);
    assert.match(reported, new RegExp(`no entry for ${thirdAction}`));
  });

  test('rejects a way out of a final state', () => {
    const reported = reportedAfter(transitionTableRule, (document) => {
      entries(document)[firstAction].from.push(last);
      entries(document)[secondAction] = { toField: 'action', moves: { [last]: [first] } };
    });
    assert.match(reported, new RegExp(`${last} is a final state, yet ${firstAction} accepts it and leads out of it`));
    assert.match(reported, new RegExp(`${last} is a final state, yet ${secondAction} moves out of it to ${first}`));
  });

  test('rejects moves whose toField is not a required request field', () => {
    const reported = reportedAfter(transitionTableRule, (document) => {
      entries(document)[secondAction] = { toField: 'target_status', moves: { [first]: [second] } };
    });
    assert.match(reported, new RegExp(`The entry of ${secondAction} has moves, so "toField" must name the request field`));
    const accepted = reportedAfter(transitionTableRule, (document) => {
      document.components.schemas[branchName(secondAction)].required.push('target_status');
      entries(document)[secondAction] = { toField: 'target_status', moves: { [first]: [second] } };
    });
    assert.equal(accepted, '');
  });

  test('rejects a document without the table or without the states', () => {
    assert.match(reportedAfter(transitionTableRule, (document) => delete document['x-transitions']), /^#\/x-transitions: The document has no x-transitions table/);
    assert.match(reportedAfter(transitionTableRule, (document) => delete document.components.schemas.SubscriptionStatus), /There is no SubscriptionStatus schema with an enum/);
  });
});
