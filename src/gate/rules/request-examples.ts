import { isRecord, type OpenApiDocument } from '../../lib/contract/document.ts';
import type { ActionBranch } from '../../lib/contract/request-body.ts';
import { createContractValidator, type ErrorObject } from '../../lib/contract/schema-validator.ts';
import type { ContractRule } from './contract-rule.ts';

type BranchValidator = (value: unknown) => ErrorObject[] | undefined;

/** Each branch validated by the model's one Ajv set-up (src/lib/contract/schema-validator.ts), as the document is published. */
function createBranchValidator(document: OpenApiDocument): (branch: ActionBranch) => BranchValidator {
  const validator = createContractValidator(document);
  return (branch) => {
    const checked = validator.schemaAt(branch.pointer);
    return (value) => (checked(value) ? undefined : [...(checked.errors ?? [])]);
  };
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? 'the body' : `"${error.instancePath.slice(1).replaceAll('/', '.')}"`;
      if (error.keyword === 'additionalProperties') return `${where} has the field "${String(error.params.additionalProperty)}", which this action does not accept`;
      if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
      return `${where} ${error.message ?? 'is invalid'}`;
    })
    .join('; ');
}

export const requestExamplesRule: ContractRule = {
  name: 'request-examples',
  rule: 'Every action has a request example, valid for its own branch and for no other.',
  rules: ['4.1c'],
  check({ document, requestMediaType, actionBranches: branches, branchActions, requestExamples }, report) {
    if (requestMediaType === undefined || branches.length === 0) return;
    let validatorFor: (branch: ActionBranch) => BranchValidator;
    try {
      validatorFor = createBranchValidator(document);
    } catch (error) {
      report({ location: '#/components/schemas', message: `The schemas cannot be compiled to validate the examples: ${(error as Error).message}` });
      return;
    }
    const exemplified = new Set<string>();
    for (const example of requestExamples) {
      const label = `Request example "${example.name}"`;
      if (!example.hasValue) {
        report({ location: example.pointer, message: `${label} has no inline value, so it cannot be checked against its action.` });
        continue;
      }
      const action = isRecord(example.value) ? example.value.action : undefined;
      const ownBranch = branches.find((branch) => branch.action === action);
      if (typeof action !== 'string' || ownBranch === undefined) {
        report({
          location: `${example.pointer}/value`,
          message: `${label} sends action ${JSON.stringify(action ?? null)}, which is not one of the actions of the request body (${branchActions.join(', ')}).`,
        });
        continue;
      }
      exemplified.add(action);
      // A problem of the value is at the value, in the example's own file, where it is fixed.
      const value = `${example.pointer}/value`;
      if (branchActions.includes(example.name) && example.name !== action) {
        report({ location: `${value}/action`, message: `${label} is named after ${example.name} but sends action "${action}".` });
      }
      let errors: ErrorObject[] | undefined;
      try {
        errors = validatorFor(ownBranch)(example.value);
      } catch (error) {
        report({ location: ownBranch.pointer, message: `The ${ownBranch.label} branch cannot be compiled to validate ${label}: ${(error as Error).message}` });
        continue;
      }
      if (errors !== undefined) {
        report({ location: `${value}${errors[0]?.instancePath ?? ''}`, message: `${label} is not valid for its own action ${action}: ${describeErrors(errors)}.` });
      }
      for (const other of branches.filter((branch) => branch !== ownBranch)) {
        if (validatorFor(other)(example.value) === undefined) {
          report({
            location: value,
            message: `${label} is also valid for the ${other.label} branch; an example must match its own action's branch and no other.`,
          });
        }
      }
    }
    for (const action of branchActions.filter((candidate) => !exemplified.has(candidate))) {
      report({ location: `${requestMediaType.pointer}/examples`, message: `Action ${action} has no request example; every action needs one for its reference page and code samples.` });
    }
  },
};
