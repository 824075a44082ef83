import { z } from 'zod';
import type { Action } from '../../lib/contract/actions.ts';
import { actionErrorAnswers } from '../../lib/contract/error-bodies.ts';
import type { Field } from '../../lib/contract/fields.ts';
import { acceptedStates, targetStates } from '../../lib/contract/lifecycle.ts';
import { actionPagePath } from '../../lib/site/navigation.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineTool, docsAddress, jsonObject, jsonValue, nonEmpty, oneLine } from './tool.ts';


const fieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  deprecated: z.boolean(),
  description: z.string(),
  constraints: z.array(z.object({ keyword: z.string(), label: z.string(), values: z.array(jsonValue).optional(), limit: z.number().optional() })),
  enumValues: z.array(jsonValue).optional(),
  example: jsonValue.optional(),
});

function fieldDetails(field: Field, example: Record<string, unknown>) {
  const enumValues = field.constraints.find((constraint) => constraint.keyword === 'enum' || constraint.keyword === 'const')?.values;
  return {
    name: field.name,
    type: field.type,
    required: field.required,
    deprecated: field.deprecated,
    description: oneLine(field.description),
    constraints: field.constraints.map((constraint) => ({
      keyword: constraint.keyword,
      label: constraint.label,
      ...(constraint.values === undefined ? {} : { values: constraint.values }),
      ...(constraint.limit === undefined ? {} : { limit: constraint.limit }),
    })),
    ...(enumValues === undefined ? {} : { enumValues }),
    ...(field.name in example ? { example: example[field.name] as z.core.util.JSONType } : {}),
  };
}

/**
 * Where the action takes a subscription from each status it accepts: one target for most
 * actions, the allowed targets of the status field for `change_status`.
 */
function movesOf(action: Action): { from: string; to: string[] }[] {
  const { transition } = action;
  return transition.kind === 'fixed' ? transition.from.map((from) => ({ from, to: [transition.to] })) : transition.moves.map((move) => ({ from: move.from, to: move.to }));
}

/** One action in detail: every field with its constraints, the moves per status, the examples and the errors. */
export function actionDetailsTool(knowledge: ProductKnowledge) {
  const { model } = knowledge;
  return defineTool({
    inputSchema: z.object({ action: z.enum(nonEmpty(model.actions.map((action) => action.identifier), 'action')).describe('The action identifier') }),
    outputSchema: z.object({
      identifier: z.string(),
      summary: z.string(),
      description: z.string(),
      deprecated: z.boolean(),
      fields: z.array(fieldSchema),
      acceptedFrom: z.array(z.string()),
      leadsTo: z.array(z.string()),
      statusField: z.string().optional().describe('For an action whose target is chosen in the request: the field that names it'),
      moves: z.array(z.object({ from: z.string(), to: z.array(z.string()) })).describe('From each accepted status, where the action may take the subscription'),
      refusedFrom: z.array(z.string()).describe('Statuses from which the action is refused, unless the subscription is already where it leads'),
      requestExample: jsonObject,
      successExample: jsonValue,
      errors: z.array(z.object({ status: z.number().int(), code: z.string().optional().describe('Absent when the answer has no body contract'), when: z.string() })),
      errorExamples: z.array(z.object({ status: z.number().int(), summary: z.string(), body: jsonValue })),
      page: z.string(),
    }),
    run: ({ action: identifier }) => {
      const action = model.actions.find((candidate) => candidate.identifier === identifier);
      if (action === undefined) throw new Error(`No action ${identifier}`);
      const example = action.requestExample.value;
      return {
        identifier: action.identifier,
        summary: action.title,
        description: oneLine(action.description),
        deprecated: action.deprecated,
        fields: action.fields.map((field) => fieldDetails(field, example)),
        acceptedFrom: acceptedStates(action.transition),
        leadsTo: targetStates(action.transition),
        ...(action.transition.kind === 'chosen' ? { statusField: action.transition.field } : {}),
        moves: movesOf(action),
        refusedFrom: action.refusedStates,
        requestExample: example as Record<string, z.core.util.JSONType>,
        successExample: action.successExample.value as z.core.util.JSONType,
        errors: action.errors.map((error) => ({ status: Number(error.status), ...(error.code === null ? {} : { code: error.code }), when: oneLine(error.when) })),
        errorExamples: actionErrorAnswers(model, action).bodies.map((body) => ({ status: Number(body.status), summary: body.summary, body: body.value as z.core.util.JSONType })),
        page: docsAddress(actionPagePath(action.identifier)),
      };
    },
  });
}
