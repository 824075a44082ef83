import { z } from 'zod';
import type { Action, Field, ReferenceModel } from '../../lib/contract/model.ts';
import { actionErrorAnswers } from '../../lib/contract/error-bodies.ts';
import { factsOf } from '../../lib/contract/facts.ts';
import { acceptedStates, outcomeOf, targetStates } from '../../lib/contract/lifecycle.ts';
import { successResponse } from '../../lib/contract/response-lookups.ts';
import { conflictStatus } from '../../lib/contract/response-names.ts';
import { listInWords } from '../../lib/prose.ts';
import { actionPagePath } from '../../lib/site/navigation.ts';
import type { ProductKnowledge } from '../knowledge.ts';
import { defineAnswer, defineTool, docsAddress, jsonObject, jsonValue, nonEmpty, oneLine, readOnly } from './tool.ts';

const fieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  deprecated: z.literal(true).optional(),
  description: z.string(),
  constraints: z.array(z.object({ keyword: z.string(), label: z.string(), values: z.array(jsonValue).optional(), limit: z.number().optional() })),
});

const errorSchema = z.object({
  status: z.number().int(),
  code: z.string().optional().describe('Absent when the answer has no body contract'),
  when: z.string(),
  examples: z.array(z.object({ summary: z.string(), body: jsonValue })).optional(),
});

type ErrorEntry = z.output<typeof errorSchema>;
type Json = z.core.util.JSONType;

/** The first sentence of a text, for a field every action shares: its whole description is the same everywhere. */
function firstSentence(text: string): string {
  return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
}

/** A field as the action takes it; its example value is the request example's, which the answer gives whole once. */
function fieldDetails(field: Field, shared: boolean) {
  const description = oneLine(field.description);
  return {
    name: field.name,
    type: field.type,
    required: field.required,
    ...(field.deprecated ? { deprecated: true as const } : {}),
    description: shared ? firstSentence(description) : description,
    constraints: field.constraints.map((constraint) => ({
      keyword: constraint.keyword,
      label: constraint.label,
      ...(constraint.values === undefined ? {} : { values: constraint.values }),
      ...(constraint.limit === undefined ? {} : { limit: constraint.limit }),
    })),
  };
}

/** Every error row of an action, each with the example bodies of its code. */
function errorEntries(model: ReferenceModel, action: Action): ErrorEntry[] {
  const bodies = actionErrorAnswers(model, action).bodies;
  return action.errors.map((error) => {
    const examples = bodies
      .filter((body) => String(body.status) === error.status && typeof body.value === 'object' && body.value !== null && (body.value as { code?: unknown }).code === error.code)
      .map((body) => ({ summary: body.summary, body: body.value as Json }));
    return { status: Number(error.status), ...(error.code === null ? {} : { code: error.code }), when: oneLine(error.when), ...(examples.length === 0 ? {} : { examples }) };
  });
}

/**
 * The statuses from which the action succeeds and changes nothing, and the contract's example of
 * that answer when it has one. For an action whose target is chosen, from any status, when the
 * request names that same status; the qualifier says so in the data.
 */
function unchangedAnswer(model: ReferenceModel, action: Action, changedField: string) {
  const { transition } = action;
  const from = model.lifecycle.states.filter(
    (status) => outcomeOf(transition, status, status).kind === 'unchanged' && (transition.kind === 'chosen' || outcomeOf(transition, status).kind === 'unchanged'),
  );
  const example = action.moreSuccessExamples.find(
    (candidate) => typeof candidate.value === 'object' && candidate.value !== null && (candidate.value as Record<string, unknown>)[changedField] === false,
  );
  return {
    from,
    ...(transition.kind === 'chosen' ? { when: `${transition.field}=<the current status>` } : {}),
    answer: `${successResponse(model.responses).status} with ${changedField}: false; nothing changes`,
    ...(example === undefined ? {} : { example: { summary: example.summary, body: example.value as Json } }),
  };
}

export const actionDetailsTool = defineTool({
  name: 'action_details',
  title: 'One action in detail',
  description:
    "One action's fields (type, constraints, allowed values), the statuses it accepts and where it takes each (change_status's moves per status), where it answers unchanged and where it is refused, its request and success examples, its own errors (errors: true for every error with its bodies), and its reference page.",
  annotations: readOnly,
  answer: actionDetailsAnswer,
});

/** One action in detail: every field with its constraints, the moves per status, the examples and the errors. */
function actionDetailsAnswer(knowledge: ProductKnowledge) {
  const { model } = knowledge;
  const { changedField } = factsOf(model);
  const sharedFields = new Set(model.envelope.sharedFields.map((field) => field.name));
  const allErrors = new Map(model.actions.map((action) => [action.identifier, errorEntries(model, action)]));
  // An error every action answers alike is api_overview's to list; an action's details keep what is
  // its own: its refusal (the statuses that refuse it differ) and any row other actions lack.
  const rowKey = (entry: ErrorEntry) => `${entry.status} ${entry.code ?? ''} ${entry.when}`;
  const common = (entry: ErrorEntry) => String(entry.status) !== conflictStatus && [...allErrors.values()].every((entries) => entries.some((other) => rowKey(other) === rowKey(entry)));
  // Worked out once: comparing every row with every action's rows on each call made this tool allocate the most after search.
  const sharedErrors = new Map([...allErrors].map(([identifier, entries]) => [identifier, entries.filter(common)]));
  return defineAnswer({
    inputSchema: z.object({
      action: z.enum(nonEmpty(model.actions.map((action) => action.identifier), 'action')).describe('The action identifier'),
      errors: z.boolean().default(false).describe('Every error the action can answer with, each with its example bodies; by default only those of this action alone'),
    }),
    outputSchema: z.object({
      identifier: z.string(),
      summary: z.string(),
      description: z.string(),
      deprecated: z.literal(true).optional(),
      fields: z.array(fieldSchema),
      acceptedFrom: z.array(z.string()),
      leadsTo: z.array(z.string()),
      statusField: z.string().optional().describe('For an action whose target is chosen in the request: the field that names it'),
      moves: z
        .array(z.object({ from: z.string(), to: z.array(z.string()) }))
        .optional()
        .describe('For an action whose target is chosen in the request: from each accepted status, the statuses it may set; any other action takes every accepted status to leadsTo'),
      answersUnchanged: z
        .object({ from: z.array(z.string()), when: z.string().optional(), answer: z.string(), example: z.object({ summary: z.string(), body: jsonValue }).optional() })
        .describe('The statuses from which the action succeeds and changes nothing, because the subscription is already where it leads'),
      refusedFrom: z.array(z.union([z.string(), z.object({ status: z.string(), unless: z.string() })])).describe('Statuses from which the action is refused with 409'),
      requestExample: jsonObject.describe("A whole request body: each field's example value, as the reference page shows it"),
      successExample: jsonValue,
      errors: z.array(errorSchema),
      otherErrors: z.string().optional(),
      page: z.string(),
    }),
    run: ({ action: identifier, errors: everyError }) => {
      const action = model.actions.find((candidate) => candidate.identifier === identifier);
      if (action === undefined) throw new Error(`No action ${identifier}`);
      const example = action.requestExample.value;
      const { transition } = action;
      const entries = allErrors.get(identifier) ?? [];
      const shared = sharedErrors.get(identifier) ?? [];
      return {
        identifier: action.identifier,
        summary: action.title,
        description: oneLine(action.description),
        ...(action.deprecated ? { deprecated: true as const } : {}),
        fields: action.fields.map((field) => fieldDetails(field, sharedFields.has(field.name))),
        acceptedFrom: acceptedStates(transition),
        leadsTo: targetStates(transition),
        // An action with one target takes every accepted status there, which acceptedFrom and
        // leadsTo say already; only a chosen target has moves that differ by status.
        ...(transition.kind === 'chosen' ? { statusField: transition.field, moves: transition.moves.map((move) => ({ from: move.from, to: move.to })) } : {}),
        answersUnchanged: unchangedAnswer(model, action, changedField),
        refusedFrom: action.refusedStates.map((status) => (transition.kind === 'chosen' ? { status, unless: `${transition.field}=${status}` } : status)),
        requestExample: example as Record<string, Json>,
        successExample: action.successExample.value as Json,
        errors: everyError ? entries : entries.filter((entry) => !shared.includes(entry)),
        ...(everyError || shared.length === 0
          ? {}
          : {
              otherErrors: `Every action can also answer ${listInWords(
                shared.map((entry) => `${entry.status}${entry.code === undefined ? '' : ` ${entry.code}`}`),
                'and',
              )}: api_overview lists them; errors: true adds each here with its example bodies.`,
            }),
        page: docsAddress(actionPagePath(action.identifier)),
      };
    },
  });
}
