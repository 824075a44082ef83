/**
 * What every library's page decides alike, written from the model: the environment its example
 * reads, the command that sets it, the reference of every method (the action it sends, its fields
 * with their types, bounds and descriptions, the errors it can end with), and which answers the
 * client sends again. A page renders these in its own language; only what the language forces
 * (a method's name, a class's name, an option's name) comes from its folder.
 */
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { readFacts } from '../../lib/contract/facts.ts';
import { typeLabel } from '../../lib/contract/fields.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { contractFacts } from './contract-facts.ts';
import { fixedErrorClassName, statusErrorClassName, type ClientLanguage } from './error-kinds.ts';
import { boundPhrase, callerFields, fieldSchema } from './field-rules.ts';

/** The environment every example script reads: the site's base URL, its key, the subscription. */
export const exampleEnvironment = { siteUrl: 'SHOP_URL', apiKey: 'SHOP_API_KEY', subscriptionId: 'SUBSCRIPTION_ID' } as const;

/** The subscription the quickstart's example names, which a new sandbox holds in the status that example starts from. */
function exampleSubscriptionId(contract: ExecutableContract): number {
  const facts = readFacts(contract.document);
  const id = contract.action(facts.quickstartAction)?.requestExample.value[facts.subscriptionField];
  return typeof id === 'number' ? id : 1;
}

/** The environment set as a reader would, with visibly fake values. */
export function environmentCommand(contract: ExecutableContract): string {
  const facts = readFacts(contract.document);
  const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;
  return `export ${siteUrl}=https://${facts.siteExample} ${apiKey}=your-api-key-not-this ${subscriptionId}=${exampleSubscriptionId(contract)}`;
}

/**
 * The environment that points the example at a new sandbox started as its page says: its base URL
 * and key (the sandbox's walkthrough reads them from its code), and the example's subscription.
 */
export function sandboxEnvironmentCommand(contract: ExecutableContract, sandboxBaseUrl: string, sandboxApiKey: string): string {
  const { siteUrl, apiKey, subscriptionId } = exampleEnvironment;
  return `export ${siteUrl}=${sandboxBaseUrl} ${apiKey}=${sandboxApiKey} ${subscriptionId}=${exampleSubscriptionId(contract)}`;
}

/** One method of a page's reference: the action it sends, the fields a caller passes, and the statuses of its documented errors. */
export interface MethodReference {
  method: string;
  action: string;
  title: string;
  fields: { name: string; type: string; required: boolean; bounds: string[]; description: string }[];
  /** The statuses the action's errors are answered with, each once, in the contract's order. */
  errorStatuses: number[];
}

/** Every action's method, named as the language names it (`methodName`), with its fields' types, bounds and descriptions and its errors' statuses. */
export function methodReference(contract: ExecutableContract, methodName: (identifier: string) => string): MethodReference[] {
  return contract.model.actions.map((action) => ({
    method: methodName(action.identifier),
    action: action.identifier,
    title: action.title,
    fields: callerFields(contract, action.fields).map((field) => ({
      name: field.name,
      type: typeLabel(contract.document, fieldSchema(contract, field)),
      required: field.required,
      bounds: field.constraints.filter((constraint) => constraint.limit !== undefined || constraint.values !== undefined).map(boundPhrase),
      description: field.description,
    })),
    errorStatuses: [...new Set(action.errors.map((error) => Number(error.status)))],
  }));
}

/** The statuses whose answer carries an error body: each is a class of its own in every library. */
export function documentedErrorStatuses(contract: ExecutableContract): number[] {
  return [...new Set(contract.model.responses.filter((response) => response.isError && response.body !== undefined).map((response) => Number(response.status)))];
}

/** One answer of the retry policy as a client applies it: what it is, whether it is sent again, after which wait, and what is thrown at the end. */
export interface RetryRow {
  answer: string;
  /** `false` when the answer is thrown after the one attempt. */
  retried: boolean;
  wait: string;
  /** The classes thrown when the attempts run out: one, or one per status of the row. */
  thrown: string[];
}

/**
 * Which answers a client sends again, after which wait, and the class it ends with when the
 * attempts run out, from the policy and the model, with the language's class names and the name
 * of its option for the longest `Retry-After` waited (`retryWaitOption`).
 */
export function retryRows(contract: ExecutableContract, language: ClientLanguage, retryWaitOption: string): RetryRow[] {
  const facts = contractFacts(contract);
  const error = (kind: Parameters<typeof fixedErrorClassName>[0]) => fixedErrorClassName(kind, language);
  const statusError = (status: number) => statusErrorClassName(status, language);
  const backoff = 'the backoff';
  const statusList = (statuses: readonly (number | string)[]) => statuses.map(String).join(', ');
  const { throttledStatus, serviceFailureStatus, retryAfterHeader } = facts;
  const refusals = contract.model.responses.filter((response) => response.isError && Number(response.status) !== serviceFailureStatus && Number(response.status) !== throttledStatus);
  return [
    { answer: `${throttledStatus} with a ${retryAfterHeader} of at most ${retryPolicy.retryAfterCapSeconds} s (${retryWaitOption})`, retried: true, wait: `the wait its ${retryAfterHeader} asks for`, thrown: [error('throttled')] },
    { answer: `${throttledStatus} without a readable ${retryAfterHeader}`, retried: true, wait: backoff, thrown: [error('throttled')] },
    { answer: `${throttledStatus} with a longer ${retryAfterHeader}`, retried: false, wait: '', thrown: [error('throttled')] },
    { answer: `${serviceFailureStatus} from the service`, retried: true, wait: backoff, thrown: [statusError(serviceFailureStatus)] },
    { answer: `${statusList(facts.transientHostStatuses)} from a host in front of the site`, retried: true, wait: backoff, thrown: [error('host')] },
    { answer: `no answer within the timeout (${retryPolicy.attemptTimeoutSeconds} s)`, retried: true, wait: backoff, thrown: [error('timeout')] },
    { answer: 'a refused, dropped or unreachable connection', retried: true, wait: backoff, thrown: [error('connection')] },
    { answer: `${statusList([...new Set(refusals.map((response) => response.status))])} from the service`, retried: false, wait: '', thrown: [...new Set(refusals.map((response) => statusError(Number(response.status))))] },
    { answer: 'any other answer of a host (an HTML 403, a redirect)', retried: false, wait: '', thrown: [error('host')] },
  ];
}
