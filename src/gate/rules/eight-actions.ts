import { isRecord } from '../../lib/contract/document.ts';
import { actionNamePointer } from '../../lib/contract/extensible-enum.ts';
import { isStringArray } from '../../lib/contract/located.ts';
import type { ContractRule } from './contract-rule.ts';
import { quoteList } from './contract-rule.ts';

/** The eight action identifiers of rule 4.1c (src/lib/spec-rules.ts), exactly as specified. */
export const specifiedActions = [
  'cancel_subscription',
  'pause_subscription',
  'resume_subscription',
  'reactivate_subscription',
  'expire_subscription',
  'change_status',
  'trial_end',
  'payment_failed',
] as const;

export const eightActionsRule: ContractRule = {
  name: 'eight-actions',
  rule: 'The eight action identifiers, each selected by the body field `action`; v1 may add actions, never drop one.',
  rules: ['4.1c', '1.2', '9.4'],
  check(parts, report) {
    const { operation, requestMediaType, requestSchema: schema, actionBranches: branches } = parts;
    if (operation === undefined) return;
    if (operation.node.requestBody === undefined) {
      report({ location: operation.pointer, message: 'The POST operation has no request body; the action and its fields travel in the JSON body.' });
      return;
    }
    if (requestMediaType === undefined) {
      report({ location: `${operation.pointer}/requestBody`, message: 'The request body has no application/json content; requests are JSON.' });
      return;
    }
    if (schema === undefined || !Array.isArray(schema.node.oneOf)) {
      report({
        location: schema?.pointer ?? requestMediaType.pointer,
        message: 'The request body schema is not a oneOf of the actions; each of the eight actions needs its own branch.',
      });
      return;
    }
    const seenActions = new Set<string>();
    for (const branch of branches) {
      if (branch.action === undefined) {
        report({ location: branch.pointer, message: `The ${branch.label} branch does not fix "action" with a const; every branch must name its action.` });
        continue;
      }
      if (seenActions.has(branch.action)) {
        report({ location: branch.pointer, message: `Two branches of the request body set action to "${branch.action}".` });
      }
      seenActions.add(branch.action);
      if (!isStringArray(branch.node.required) || !branch.node.required.includes('action')) {
        report({ location: branch.pointer, message: `The ${branch.label} branch does not list "action" under required; the action is chosen by that field.` });
      }
    }
    for (const action of specifiedActions.filter((candidate) => !seenActions.has(candidate))) {
      report({ location: schema.pointer, message: `No branch of the request body's oneOf has action "${action}", one of the eight actions of the specification.` });
    }

    const discriminator = schema.node.discriminator;
    if (discriminator === undefined || discriminator.propertyName !== 'action' || !isRecord(discriminator.mapping)) {
      report({
        location: schema.pointer,
        message: 'The request body needs a discriminator on "action" with an explicit mapping from each identifier to its branch.',
      });
      return;
    }
    const mapping = discriminator.mapping;
    for (const [action, written] of Object.entries(mapping)) {
      // A mapping may also name a schema component by its bare name.
      const target = written.startsWith('#') ? written : `#/components/schemas/${written}`;
      const branch = branches.find((candidate) => candidate.pointer === target);
      if (branch === undefined) {
        report({ location: schema.pointer, message: `The discriminator maps "${action}" to ${target}, which is not a branch of the oneOf.` });
      } else if (branch.action !== action) {
        report({ location: schema.pointer, message: `The discriminator maps "${action}" to the branch whose action is "${branch.action ?? 'unset'}".` });
      }
    }
    for (const action of [...new Set([...specifiedActions, ...seenActions])].filter((candidate) => !(candidate in mapping))) {
      report({ location: schema.pointer, message: `The discriminator mapping has no entry for "${action}".` });
    }

    // Other schemas that list the identifiers (the action of a result, the allowed actions of a
    // 409) must not drift from the request body.
    const listed = parts.listedActionNames;
    if (listed !== undefined) {
      const unknown = listed.filter((value) => !seenActions.has(value));
      const missing = [...seenActions].filter((action) => !listed.includes(action));
      if (unknown.length > 0 || missing.length > 0) {
        report({
          location: actionNamePointer,
          message: `ActionName must list exactly the actions of the request body${unknown.length > 0 ? `; not in the request body: ${quoteList(unknown)}` : ''}${missing.length > 0 ? `; missing: ${quoteList(missing)}` : ''}.`,
        });
      }
    }
  },
};
