/**
 * What the rules' own tests (`<rule>.test.ts` beside each rule) run against: the smallest
 * document every rule accepts, built in memory, and a way to run one rule over it in process.
 * A test breaks one part of the document and expects its rule to say so; no bundling, no
 * Redocly, no file of `openapi/`. The states are stand-ins, not the contract's: the rules read
 * the states from the document they are given.
 */
import type { OpenApiDocument } from '../../lib/contract/document.ts';
import type { ContractProblem } from '../../lib/contract/problems.ts';
import { contractPartsOf, type ContractRule } from './contract-rule.ts';
import { specifiedActions } from './eight-actions.ts';
import { apiKeyPlaceholder } from './placeholder-api-key.ts';
import { endpointPath } from './single-endpoint.ts';

/** A document as plain data, for a test to break anywhere. */
export type EditableDocument = Record<string, any>;

/** The stand-in states of the small document, the last of them final. */
export const smallStates = ['first', 'second', 'last'] as const;

/** The component name of an action's branch and example: `trial_end` is `TrialEndRequest`. */
export function branchName(action: string): string {
  return `${action.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())}Request`;
}

/** The smallest document the gate's rules accept, with one branch, example and transition per action. */
export function smallContract(actions: readonly string[] = specifiedActions): EditableDocument {
  const [first, second, last] = smallStates;
  const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  return {
    openapi: '3.1.0',
    info: { title: 'Small contract', version: '1.0.0' },
    servers: [{ url: `https://{site}${endpointPath.replace(/\/action$/, '')}`, variables: { site: { default: 'shop.example' } } }],
    paths: {
      '/action': {
        post: {
          requestBody: { $ref: '#/components/requestBodies/ActionRequest' },
          responses: {
            '200': { description: 'Done.', content: { 'application/json': { schema: schemaRef('ActionResult') } } },
          },
        },
      },
    },
    components: {
      requestBodies: {
        ActionRequest: {
          content: {
            'application/json': {
              schema: {
                oneOf: actions.map((action) => schemaRef(branchName(action))),
                discriminator: { propertyName: 'action', mapping: Object.fromEntries(actions.map((action) => [action, `#/components/schemas/${branchName(action)}`])) },
              },
              examples: Object.fromEntries(actions.map((action) => [action, { $ref: `#/components/examples/${branchName(action)}` }])),
            },
          },
        },
      },
      schemas: {
        ApiKey: { type: 'string' },
        ActionName: { type: 'string', description: 'Extensible enum. The actions.', examples: [...actions] },
        SubscriptionStatus: { type: 'string', enum: [...smallStates] },
        ActionResult: { type: 'object', properties: { action: schemaRef('ActionName'), status: schemaRef('SubscriptionStatus') } },
        ...Object.fromEntries(
          actions.map((action) => [
            branchName(action),
            {
              type: 'object',
              additionalProperties: false,
              required: ['action', 'api_key'],
              properties: { action: { type: 'string', const: action }, api_key: schemaRef('ApiKey') },
            },
          ]),
        ),
      },
      examples: Object.fromEntries(actions.map((action) => [branchName(action), { value: { action, api_key: apiKeyPlaceholder } }])),
    },
    'x-transitions': {
      final: [last],
      actions: Object.fromEntries(actions.map((action) => [action, { from: [first], to: second }])),
    },
  };
}

/** What one rule reports about a document, in process. */
export function problemsOf(rule: ContractRule, document: EditableDocument): ContractProblem[] {
  const problems: ContractProblem[] = [];
  rule.check(contractPartsOf(document as OpenApiDocument), (problem) => problems.push(problem));
  return problems;
}

/** What the rule reports about the small document broken by `edit`. */
export function problemsAfter(rule: ContractRule, edit: (document: EditableDocument) => void): ContractProblem[] {
  const document = smallContract();
  edit(document);
  return problemsOf(rule, document);
}

/** What the rule reports about the small document broken by `edit`, a problem a line (`pointer: message`), for `assert.match`. */
export function reportedAfter(rule: ContractRule, edit: (document: EditableDocument) => void): string {
  return problemsAfter(rule, edit)
    .map((problem) => `${problem.location}: ${problem.message}`)
    .join('\n');
}
