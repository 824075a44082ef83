import type { ReferenceModel } from './model.ts';
import { isRecord } from './document.ts';
import { childPointer } from './json-pointer.ts';
import { allowedActions, outcomeOf } from './lifecycle.ts';
import type { ReportProblem } from './problems.ts';
import { jsonMediaType } from './request-body.ts';
import type { ResultShape } from './response-shapes.ts';
import { refusalDetails } from './refusal-details.ts';
import { responseWithStatus, successResponse } from './response-lookups.ts';
import { conflictStatus } from './response-names.ts';

/**
 * The examples the site publishes say what the lifecycle table says: each success example is an
 * answer the sandbox would give to its action (the status before, the status after and `changed`
 * as `x-transitions` has them), and each 409 example lists the actions the lifecycle allows from
 * the status it names. Each problem is reported at the member of the example that is wrong.
 */
export function checkExamplesAgainstLifecycle(model: ReferenceModel, result: ResultShape, report: ReportProblem): void {
  const success = successResponse(model.responses);
  const successExamples = childPointer(success.pointer, 'content', jsonMediaType, 'examples');
  const states = model.lifecycle.states;
  for (const action of model.actions) {
    for (const example of [{ ...action.successExample, name: action.identifier }, ...action.moreSuccessExamples]) {
      const value = example.value;
      const at = (member: string) => childPointer(successExamples, example.name, 'value', member);
      if (!isRecord(value)) continue;
      if (value[result.action] !== action.identifier) {
        report({ location: at(result.action), message: `the example of ${action.identifier} names the action \`${String(value[result.action])}\`` });
        continue;
      }
      const before = value[result.previousStatus];
      const after = value[result.status];
      if (typeof before !== 'string' || !states.includes(before) || typeof after !== 'string' || !states.includes(after)) continue;
      const outcome = outcomeOf(action.transition, before, after);
      if (outcome.kind === 'refused') {
        report({ location: at(result.previousStatus), message: `${action.identifier} refuses a subscription that is ${before}, yet the example shows it answering ${before} → ${after} (x-transitions)` });
        continue;
      }
      const expectedAfter = outcome.kind === 'changed' ? outcome.to : before;
      if (after !== expectedAfter) {
        report({ location: at(result.status), message: `${action.identifier} leads from ${before} to ${expectedAfter} in x-transitions, yet the example says \`${after}\`` });
        continue;
      }
      const changed = outcome.kind === 'changed';
      if (value[result.changed] !== changed) {
        report({ location: at(result.changed), message: `${action.identifier} from ${before} to ${after} answers \`${result.changed}: ${String(changed)}\`, yet the example says \`${String(value[result.changed])}\`` });
      }
    }
  }

  const conflict = responseWithStatus(model.responses, conflictStatus, 'to an action the current status refuses');
  const details = refusalDetails(model.responses, states);
  for (const example of details.examples) {
    const expected = allowedActions(model.lifecycle, example.status);
    const missing = expected.filter((name) => !example.actions.includes(name));
    const extra = example.actions.filter((name) => !expected.includes(name));
    if (missing.length > 0 || extra.length > 0) {
      const differences = [
        ...(missing.length > 0 ? [`leaves out ${shortList(missing)}, which x-transitions allows`] : []),
        ...(extra.length > 0 ? [`lists ${shortList(extra)}, which x-transitions does not allow`] : []),
      ];
      report({
        location: childPointer(conflict.pointer, 'content', jsonMediaType, 'examples', example.name, 'value', details.detailsMember, details.allowedActions),
        message: `for a subscription that is ${example.status}, the example ${differences.join(' and ')}`,
      });
    }
  }
}

/** Names for a message, the first five and how many more. */
function shortList(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => `\`${name}\``).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}
