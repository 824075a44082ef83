/**
 * The plan of `workflow-plan.ts` as an Arazzo 1.0 description (OpenAPI Initiative, 1.0.1): one
 * source description (the bundled OpenAPI document beside it), the key and a subscription per
 * workflow as inputs, and success criteria on the documented answer. Published as
 * `/openapi/v1.arazzo.yaml`, checked by `npm run lint` and run by `redocly respect`.
 */
import { stringify } from 'yaml';
import type { ExecutableContract } from '../contract/executable-contract.ts';
import { jsonMediaType } from '../contract/request-body.ts';
import { errorCodeField } from '../contract/response-names.ts';
import { refusalDetails } from '../contract/refusal-details.ts';
import { successResponse } from '../contract/response-lookups.ts';
import { retryPolicy } from '../samples/retry-policy.ts';
import { planWorkflows, subscriptionInputName, workflowSubscriptions, type PlannedStep, type PlannedWorkflow, type WorkflowSubscription } from './workflow-plan.ts';

/** The version of the Arazzo Specification the description follows. */
export const arazzoVersion = '1.0.1';
/** The name `--server` takes: `redocly respect … --server lifecycle=https://shop.example/wp-json/service/v1`. */
export const sourceDescriptionName = 'lifecycle';
/** The input every workflow takes the site's key from: named as the request field that carries it. */
export function apiKeyInput(contract: ExecutableContract): string {
  return contract.model.envelope.credential;
}
/** The OpenAPI document the description runs against, relative to it: both are published in `/openapi/`. */
export const sourceDescriptionUrl = 'v1.yaml';

/**
 * How the throttled workflow sends its request again: after the retry policy's first wait, as
 * often as the policy retries. The Arazzo Specification lets a tool prefer the `Retry-After` the
 * host sent over this wait; Redocly's Respect 2.77 waits this one.
 */
export const throttleRetry = { retryAfter: retryPolicy.backoffBaseSeconds, retryLimit: retryPolicy.maxAttempts - 1 } as const;

type Json = null | boolean | number | string | Json[] | { [name: string]: Json };

/** A literal as a simple condition writes it: strings in single quotes (Arazzo 1.0.1, section 4.6.17). */
function literal(value: string | boolean | number): string {
  return typeof value === 'string' ? `'${value.replaceAll("'", "''")}'` : String(value);
}

function member(...path: string[]): string {
  return `$response.body#/${path.join('/')}`;
}

function stepOf(step: PlannedStep, workflow: PlannedWorkflow, contract: ExecutableContract): Record<string, Json> {
  const { envelope, endpoint } = contract.model;
  const { result, errors } = contract;
  const success = successResponse(contract.model.responses).status;
  const conflict = errors.transitionNotAllowed.status;
  const details = refusalDetails(contract.model.responses, contract.model.lifecycle.states).detailsMember;
  const action = step.action.kind === 'named' ? step.action.identifier : `$steps.${step.action.fromStep}.outputs.next_action`;
  const payload: Record<string, Json> = {
    [envelope.credential]: `$inputs.${apiKeyInput(contract)}`,
    [envelope.selector]: action,
    [envelope.subject]: `$inputs.${subscriptionInputName(workflow.workflowId)}`,
    ...(step.extraFields as Record<string, Json>),
  };
  const criteria: Json[] = [];
  const outputs: Record<string, Json> = {};
  const expect = step.expect;
  if (expect.kind === 'result') {
    criteria.push(
      { condition: `$statusCode == ${success}` },
      { condition: `${member(result.action)} == ${literal(action)}` },
      { condition: `${member(result.previousStatus)} == ${literal(expect.result.previousStatus)}` },
      { condition: `${member(result.status)} == ${literal(expect.result.status)}` },
      { condition: `${member(result.changed)} == ${literal(expect.result.changed)}` },
    );
  } else if (expect.kind === 'refusal') {
    criteria.push(
      { condition: `$statusCode == ${conflict}` },
      { condition: `${member(errorCodeField)} == ${literal(errors.transitionNotAllowed.code)}` },
      { condition: `${member(details, errors.currentStatusMember)} == ${literal(expect.currentStatus)}` },
      // JSONPath on the list: true when it names the action; `..` reads the list whether a tool
      // hands the context over as it is or wrapped in an array, as Redocly's Respect does.
      { context: member(details, errors.allowedActionsMember), type: 'jsonpath', condition: `$..[?(@ == ${literal(expect.listed)})]` },
    );
    outputs[errors.currentStatusMember] = member(details, errors.currentStatusMember);
    outputs.next_action = member(details, errors.allowedActionsMember, String(expect.position));
  } else {
    const from = `$steps.${expect.fromStep}.outputs`;
    criteria.push(
      { condition: `$statusCode == ${success}` },
      { condition: `${member(result.action)} == ${from}.next_action` },
      { condition: `${member(result.previousStatus)} == ${from}.${errors.currentStatusMember}` },
      { condition: `${member(result.changed)} == true` },
    );
  }
  return {
    stepId: step.stepId,
    description: step.description,
    operationId: endpoint.operation.operationId ?? '',
    requestBody: { contentType: jsonMediaType, payload },
    successCriteria: criteria,
    ...(step.retriesThrottling
      ? {
          onFailure: [
            {
              name: 'wait_and_send_again',
              type: 'retry',
              ...throttleRetry,
              criteria: [{ condition: `$statusCode == ${contract.throttled.status}` }],
            },
          ],
        }
      : {}),
    ...(Object.keys(outputs).length > 0 ? { outputs } : {}),
  };
}

function workflowOf(workflow: PlannedWorkflow, subscription: WorkflowSubscription | undefined, contract: ExecutableContract): Record<string, Json> {
  const { envelope } = contract.model;
  const lastStep = workflow.steps.at(-1);
  const ends = lastStep?.expect.kind === 'result' ? lastStep.expect.result.status : undefined;
  return {
    workflowId: workflow.workflowId,
    summary: workflow.summary,
    description: workflow.description,
    inputs: {
      type: 'object',
      required: [apiKeyInput(contract)],
      properties: {
        [apiKeyInput(contract)]: { type: 'string', format: 'password', description: `The site's API key, sent as \`${envelope.credential}\`.` },
        [subscriptionInputName(workflow.workflowId)]: {
          type: 'integer',
          minimum: 1,
          description:
            `A subscription that is ${workflow.startStatus} when the workflow starts` +
            (workflow.changesSubscription ? `; the workflow changes it${ends === undefined ? '' : ` (it ends ${ends})`}, so give another one each run.` : '; the workflow leaves it as it is.') +
            ' The default is the one a new sandbox holds for this workflow.',
          ...(subscription === undefined ? {} : { default: subscription.id }),
        },
      },
    },
    steps: workflow.steps.map((step) => stepOf(step, workflow, contract)),
  };
}

/** The Arazzo description of the lifecycle, as an object. */
export function arazzoDocument(contract: ExecutableContract): Record<string, Json> {
  const workflows = planWorkflows(contract);
  const subscriptions = workflowSubscriptions(contract, workflows);
  return {
    arazzo: arazzoVersion,
    info: {
      title: `${contract.document.info.title}: the lifecycle as workflows`,
      version: contract.model.documentVersion,
      description:
        'Generated from the OpenAPI document beside it (its lifecycle table `x-transitions`, its examples and its responses). ' +
        `Run it against a site with \`redocly ${respectArguments(contract, { file: 'v1.arazzo.yaml', siteUrl: contract.model.endpoint.urlTemplate.slice(0, -contract.model.endpoint.urlPath.length), apiKey: apiKeyPlaceholder(contract) }).join(' ')}\`. ` +
        'Every workflow but the throttled one changes the subscription it is given.',
    },
    sourceDescriptions: [{ name: sourceDescriptionName, url: sourceDescriptionUrl, type: 'openapi' }],
    workflows: workflows.map((workflow) => workflowOf(workflow, subscriptions.find((subscription) => subscription.workflowId === workflow.workflowId), contract)),
  };
}

/** The published file: the description as YAML, saying at its top what wrote it. */
export function arazzoYaml(contract: ExecutableContract): string {
  const header = [
    '# The lifecycle as Arazzo workflows, generated from the OpenAPI document v1.yaml beside this file',
    '# by src/lib/workflows/ of the documentation project; edit the OpenAPI document, not this file.',
  ].join('\n');
  return `${header}\n${stringify(arazzoDocument(contract), { lineWidth: 0 })}`;
}

/**
 * The server URL `--server` gives for a site: its address and the path of the version namespace,
 * the OpenAPI document's server URL with the site put in (`http://127.0.0.1:8787/wp-json/service/v1`).
 */
export function workflowServerUrl(contract: ExecutableContract, siteUrl: string): string {
  const { urlPath, path: operationPath } = contract.model.endpoint;
  return `${siteUrl.replace(/\/$/, '')}${urlPath.slice(0, urlPath.length - operationPath.length)}`;
}

export interface RespectTarget {
  /** The Arazzo file, as the reader's shell names it. */
  file: string;
  /** The site's address (`https://shop.example`, `http://127.0.0.1:8787`). */
  siteUrl: string;
  apiKey: string;
  /** Inputs beyond the key: a subscription for a workflow, by input name. */
  inputs?: Record<string, string | number>;
}

/**
 * The arguments of `redocly respect` that run the workflows against a site: every one, or the one
 * named. Each input goes as `--input name=value`; Respect reads a value with a comma or an equals
 * sign wrongly in that form, so such a value makes the inputs one JSON object instead. With
 * `verbose`, Respect prints each request and the status, headers and body the site answered: its
 * checks alone name what a step expected (`$statusCode == 200`), never what came back.
 */
export function respectArguments(contract: ExecutableContract, target: RespectTarget & { workflow?: string; verbose?: boolean }): string[] {
  const inputs: Record<string, string | number> = { [apiKeyInput(contract)]: target.apiKey, ...target.inputs };
  const plain = Object.values(inputs).every((value) => !/[,=]/.test(String(value)));
  const inputArguments = plain ? Object.entries(inputs).flatMap(([name, value]) => ['--input', `${name}=${value}`]) : ['--input', JSON.stringify(inputs)];
  return [
    'respect',
    target.file,
    ...(target.workflow === undefined ? [] : ['--workflow', target.workflow]),
    '--server',
    `${sourceDescriptionName}=${workflowServerUrl(contract, target.siteUrl)}`,
    ...inputArguments,
    ...(target.verbose === true ? ['--verbose'] : []),
  ];
}

/** The placeholder the contract's examples give the key (`<API_KEY>`): visibly not a key. */
export function apiKeyPlaceholder(contract: ExecutableContract): string {
  const credential = apiKeyInput(contract);
  const example = contract.model.actions.map((action) => action.requestExample.value[credential]).find((value) => typeof value === 'string');
  return typeof example === 'string' ? example : credential.toUpperCase();
}
