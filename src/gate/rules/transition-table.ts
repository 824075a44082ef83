import { readLifecycle } from '../../lib/contract/lifecycle.ts';
import { isStringArray } from '../../lib/contract/located.ts';
import type { ContractRule } from './contract-rule.ts';

export const transitionTableRule: ContractRule = {
  name: 'transition-table',
  rule: 'The transition table (x-transitions) covers the eight actions over the SubscriptionStatus states, and a final state is never left (a decision recorded in openapi/README.md).',
  rules: ['4.1c'],
  check({ document, actionBranches }, report) {
    // The model's own reader of the table, with every problem it finds reported here.
    const actions = actionBranches.flatMap((branch, index) =>
      branch.action === undefined || actionBranches.findIndex((other) => other.action === branch.action) !== index
        ? []
        : [{ identifier: branch.action, requiredFields: isStringArray(branch.node.required) ? branch.node.required : [] }],
    );
    readLifecycle(document, actions, report);
  },
};
