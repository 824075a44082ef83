import type { ReferenceModel } from '../../lib/contract/actions.ts';
import { acceptedStates, allowedActions, refusedStates } from '../../lib/contract/lifecycle.ts';
import type { ProductFacts } from '../../lib/product-facts.ts';
import { codeSamples, sampleLanguage, sampleStatuses } from '../../lib/samples/code-samples.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { retryingClientLanguages } from '../../lib/samples/retrying-client-sample.ts';
import { actionErrorAnswers } from '../../lib/contract/error-bodies.ts';
import { openApiJsonPath, serverCardPath } from '../../lib/site/discovery.ts';
import { llmsTxtPath } from '../../lib/site/llms-txt.ts';
import { siteConfig } from '../../site-config.ts';
import { toolCatalogue } from '../catalogue.ts';

/** Who asks: someone calling the endpoint, someone maintaining the plugin on a shop, someone wiring up an agent. */
export type Audience = 'integrator' | 'plugin maintainer' | 'agent builder';

/** A question, and the facts an answer must carry to be right, each read from the contract, the policy or the product facts. */
export interface EvaluationQuestion {
  id: string;
  audience: Audience;
  question: string;
  facts: string[];
}

/** The words of the contract's own prose that `pattern` finds: a fact quoted, not retyped. A contract without them fails loudly. */
function quoted(text: string, pattern: RegExp): string {
  const found = pattern.exec(text.replace(/\s+/g, ' '))?.[0];
  if (found === undefined) throw new Error(`The contract no longer says ${String(pattern)}`);
  return found;
}

/** The first line of a sample that is its own: not a comment, not a line every sample shares. */
function distinctiveLine(code: string, identifier: string): string {
  return code.split('\n').find((line) => line.includes(identifier))?.trim() ?? code.split('\n')[0] ?? '';
}

/**
 * The questions of the published evaluation: what integrators, plugin maintainers and agent
 * builders ask, each with the facts that make an answer right. Nothing here is a value typed
 * again: identifiers, statuses, numbers and codes come from the model, the retry policy, the
 * product facts and the catalogue, and the few prose facts are quoted from the contract.
 */
export function evaluationQuestions(model: ReferenceModel, facts: ProductFacts): EvaluationQuestion[] {
  const { endpoint, envelope, lifecycle } = model;
  const action = (prefix: string) => {
    const found = model.actions.find((candidate) => candidate.identifier.startsWith(prefix));
    if (found === undefined) throw new Error(`No action starting ${prefix}`);
    return found;
  };
  const status = (name: string) => lifecycle.states.find((state) => state === name) ?? name;
  const errorCode = (status: string, index = 0) => model.responses.find((response) => response.status === status)?.errorCodes[index]?.code ?? '';
  const pause = action('pause');
  const cancel = action('cancel');
  const change = action('change_status');
  const paymentFailed = action('payment_failed');
  const throttled = actionErrorAnswers(model, pause).throttled;
  const statuses = sampleStatuses(model.responses);
  const sample = (identifier: string, language: Parameters<typeof sampleLanguage>[0]) => {
    const chosen = model.actions.find((candidate) => candidate.identifier === identifier);
    const code = codeSamples(endpoint, chosen?.requestExample.value ?? {}, statuses).find((candidate) => candidate.language === language)?.code ?? '';
    return distinctiveLine(code, identifier);
  };
  const statusField = change.transition.kind === 'chosen' ? change.transition.field : '';
  const statusValues = change.fields.find((field) => field.name === statusField)?.constraints.flatMap((constraint) => constraint.values ?? []) ?? [];
  const note = model.actions.flatMap((candidate) => candidate.fields).find((field) => field.name === envelope.note);
  const noteLimit = String(note?.constraints.find((constraint) => constraint.keyword === 'maxLength')?.limit ?? '');
  const subjectType = pause.fields.find((field) => field.name === envelope.subject)?.type ?? '';
  const restRoute = `?rest_route=${endpoint.urlPath.replace(/^\/wp-json/, '')}`;
  const docs = (pagePath: string) => new URL(pagePath, siteConfig.docsUrl).href;

  const integrator: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'endpoint-url', question: 'What URL do I send lifecycle requests to?', facts: [endpoint.urlTemplate] },
    { id: 'endpoint-method', question: 'Which HTTP method does the endpoint take?', facts: [endpoint.method, endpoint.urlTemplate] },
    { id: 'key-where', question: 'Where does the API key go in the request?', facts: [envelope.credential] },
    { id: 'oauth', question: 'Can I use OAuth to authenticate?', facts: [quoted(endpoint.description, /no OAuth 2\.0 flow/)] },
    { id: 'authorization-header', question: 'Do I send the key in an Authorization header?', facts: [envelope.credential] },
    { id: 'actions', question: 'Which lifecycle actions does the API have?', facts: model.actions.map((candidate) => candidate.identifier) },
    { id: 'selector', question: 'Which body field selects the action?', facts: [envelope.selector, envelope.subject] },
    { id: 'change-status-fields', question: `What fields does ${change.identifier} need?`, facts: change.fields.filter((field) => field.required).map((field) => field.name) },
    { id: 'change-status-values', question: `Which statuses can ${change.identifier} set?`, facts: statusValues.map(String) },
    { id: 'note-limit', question: 'How long may the note field be?', facts: [noteLimit] },
    { id: 'subject-type', question: `What type is ${envelope.subject}?`, facts: [subjectType] },
    ...model.actions.map((candidate) => ({
      id: `accepts-${candidate.identifier}`,
      question: `From which statuses can I call ${candidate.identifier}?`,
      facts: acceptedStates(candidate.transition),
    })),
    { id: 'cancelled-actions', question: `Which actions can I run on a ${status('cancelled')} subscription?`, facts: allowedActions(lifecycle, status('cancelled')) },
    { id: 'final-states', question: 'Which statuses are final, with no way out?', facts: lifecycle.finalStates },
    { id: 'pause-refused', question: `Which statuses does ${pause.identifier} refuse?`, facts: refusedStates(lifecycle, pause.transition) },
    { id: 'refused-code', question: `What error do I get when an action is not allowed from the subscription's status?`, facts: ['409', errorCode('409')] },
    { id: 'wrong-key', question: 'What does the API answer when the API key is wrong?', facts: ['401', errorCode('401')] },
    { id: 'not-found', question: 'What happens if the subscription id does not exist?', facts: ['404', errorCode('404')] },
    { id: 'missing-field', question: 'What error do I get when a required field is missing?', facts: [errorCode('400', 1)] },
    { id: 'invalid-json', question: 'What does the endpoint answer to a body that is not valid JSON?', facts: [errorCode('400', 0)] },
    { id: 'on-429', question: 'What happens on a 429?', facts: [throttled.header, String(retryPolicy.maxAttempts)] },
    { id: 'retry-after-date', question: 'Can Retry-After be an HTTP date instead of seconds?', facts: [throttled.header, throttled.examples.find((example) => !/^\d+$/.test(example)) ?? ''] },
    { id: 'retry-after-cap', question: 'How long should I wait at most when Retry-After is very long?', facts: [String(retryPolicy.retryAfterCapSeconds)] },
    { id: 'timeouts', question: 'What timeouts should my client use?', facts: [String(retryPolicy.connectTimeoutSeconds), String(retryPolicy.attemptTimeoutSeconds)] },
    { id: 'transient', question: 'Which host answers besides 429 should I retry?', facts: retryPolicy.transientHostStatuses.map(String) },
    { id: 'pace', question: 'How many requests per second may I send to a site?', facts: [String(retryPolicy.courtesyIntervalSeconds)] },
    { id: 'repeat', question: `What happens if I send ${pause.identifier} twice?`, facts: [quoted(endpoint.description, /`?changed: false`?/)] },
    { id: 'curl-pause', question: `Give me a curl example for ${pause.identifier}`, facts: [sample(pause.identifier, 'curl'), String(retryPolicy.attemptTimeoutSeconds)] },
    { id: 'python-cancel', question: `Show me Python code to call ${cancel.identifier}`, facts: [sample(cancel.identifier, 'python')] },
    { id: 'retrying-languages', question: 'In which languages is there a retrying client?', facts: retryingClientLanguages.map((language) => sampleLanguage(language).label) },
    { id: 'version', question: 'Which API version is current, and where does it appear?', facts: [endpoint.versionNamespace] },
    { id: 'additive', question: 'Will a new release of v1 break my client?', facts: [endpoint.versionSegment, quoted(endpoint.description, /a later release of version 1 may add fields/).replace(/^a later release of version 1 /, '')] },
  ];
  const maintainer: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'plain-permalinks', question: 'The shop has no pretty permalinks: where does the endpoint answer?', facts: [restRoute] },
    { id: 'subdirectory', question: 'WordPress lives in a subdirectory: what is {site}?', facts: [quoted(endpoint.variables[0]?.description ?? '', /the path when WordPress lives in a subdirectory/)] },
    { id: 'fields-before-key', question: 'Which is checked first, the fields or the key?', facts: [quoted(endpoint.description, /Fields are checked before the key/)] },
    { id: 'number-as-string', question: 'Is a subscription id sent as a string accepted?', facts: [quoted(endpoint.description, /A number written as a string passes an integer field/)] },
    { id: 'payment-failed', question: `What does ${paymentFailed.identifier} do to the subscription?`, facts: [paymentFailed.transition.kind === 'fixed' ? paymentFailed.transition.to : ''] },
    { id: 'unknown-field', question: 'What happens when a request carries a field the action does not know?', facts: ['400', errorCode('400', 2)] },
    { id: 'server-error', question: 'What does a 500 from the service look like?', facts: [errorCode('500')] },
  ];
  const agentBuilder: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'mcp-url', question: 'Where is the product-information MCP server?', facts: [siteConfig.mcpUrl] },
    { id: 'server-card', question: 'Where is the MCP server card?', facts: [serverCardPath] },
    { id: 'mcp-tools', question: 'Which tools does the product-information server have?', facts: Object.keys(toolCatalogue) },
    { id: 'openapi', question: 'Where can I download the OpenAPI document?', facts: [docs(openApiJsonPath)] },
    { id: 'llms-txt', question: 'Is there an llms.txt?', facts: [llmsTxtPath.replace(/^\//, '')] },
    { id: 'editions', question: 'What is the difference between the free and the paid edition?', facts: [facts.editions.free.name, facts.editions.paid.name] },
    { id: 'pricing', question: 'How much does the paid edition cost?', facts: [typeof facts.pricing === 'string' ? facts.pricing : (facts.pricing[0]?.price ?? '')] },
    { id: 'gateways', question: 'Which payment gateways are supported?', facts: [typeof facts.paymentGateways === 'string' ? facts.paymentGateways : facts.paymentGateways.join(', ')] },
  ];
  const questions = [
    ...integrator.map((entry) => ({ ...entry, audience: 'integrator' as const })),
    ...maintainer.map((entry) => ({ ...entry, audience: 'plugin maintainer' as const })),
    ...agentBuilder.map((entry) => ({ ...entry, audience: 'agent builder' as const })),
  ];
  // A question without facts would count as right whatever the answers say.
  for (const question of questions) if (question.facts.length === 0 || question.facts.some((fact) => fact.trim() === '')) throw new Error(`Question ${question.id} has no fact to check`);
  return questions;
}
