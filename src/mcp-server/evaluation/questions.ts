import type { ReferenceModel } from '../../lib/contract/model.ts';
import { acceptedStates, allowedActions, refusedStates } from '../../lib/contract/lifecycle.ts';
import type { ProductFacts } from '../../lib/product-facts.ts';
import { codeSamples, sampleLanguage } from '../../lib/samples/code-samples.ts';
import { camelCaseName, clientMethodName } from '../../lib/samples/client-libraries.ts';
import { errorClassName } from '../../clients/typescript/generate.ts';
import { detailGetterName, exceptionClassName } from '../../clients/php/exception-classes.ts';
import { exitCodeMeanings, exitCodes } from '../../conformance/exit-codes.ts';
import { throttleRetry } from '../../lib/workflows/arazzo-document.ts';
import { sampleStatuses } from '../../lib/samples/sample-statuses.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { countInWords, listInWords } from '../../lib/prose.ts';
import { refusalDetails } from '../../lib/contract/refusal-details.ts';
import { endpointPagePath } from '../../lib/site/navigation.ts';
import { endpointSections } from '../../lib/site/reference-pages.ts';
import { retryingClientLanguages } from '../../lib/samples/retrying-client-sample.ts';
import { actionErrorAnswers } from '../../lib/contract/error-bodies.ts';
import { openApiJsonPath, serverCardPath } from '../../lib/site/discovery.ts';
import { llmsTxtPath } from '../../lib/site/llms-txt.ts';
import { siteConfig } from '../../site-config.ts';
import { toolCatalogue } from '../catalogue.ts';
import { listed, near, says, type Fact } from './facts.ts';

/** Who asks: someone calling the endpoint, someone maintaining the plugin on a shop, someone wiring up an agent. */
export type Audience = 'integrator' | 'plugin maintainer' | 'agent builder';

/** A question, and the facts an answer must carry to be right, each read from the contract, the policy or the product facts. */
export interface EvaluationQuestion {
  id: string;
  audience: Audience;
  question: string;
  facts: Fact[];
}

/** What the evaluation needs to know of the server besides the model and the product facts. */
export interface EvaluatedServer {
  /** The MCP protocol versions the server's card lists. */
  supportedProtocolVersions: string[];
}

/** The words of the contract's own prose that `pattern` finds: a fact quoted, not retyped. A contract without them fails loudly. */
function quoted(text: string, pattern: RegExp): string {
  const found = pattern.exec(text.replace(/\s+/g, ' '))?.[0];
  if (found === undefined) throw new Error(`The contract no longer says ${String(pattern)}`);
  return found;
}

/** A sentence's first words, up to its first comma or full stop: enough to bind a code to what it means. */
function opening(markdown: string): string {
  return markdown.replace(/\s+/g, ' ').split(/[,.;:]/)[0]?.trim() ?? markdown;
}

/** The first line of `code` that none of `others` has: what only this sample says. */
function ownLine(code: string, others: string[]): string {
  const shared = new Set(others.flatMap((other) => other.split('\n').map((line) => line.trim())));
  return code.split('\n').map((line) => line.trim()).find((line) => line.length > 8 && !shared.has(line)) ?? code.split('\n')[0] ?? '';
}

/**
 * The questions of the published evaluation: what integrators, plugin maintainers and agent
 * builders ask, each with the facts that make an answer right. Nothing here is a value typed
 * again: identifiers, statuses, numbers and codes come from the model, the retry policy, the
 * product facts, the catalogue and the server card, and the prose facts are quoted from the
 * contract. Each fact is bound to its subject (facts.ts), so that an answer that does not depend
 * on the question does not count as right: tests/integration/mcp-evaluation-control.test.ts checks that.
 */
export function evaluationQuestions(model: ReferenceModel, facts: ProductFacts, server: EvaluatedServer): EvaluationQuestion[] {
  const { endpoint, envelope, lifecycle } = model;
  const action = (prefix: string) => {
    const found = model.actions.find((candidate) => candidate.identifier.startsWith(prefix));
    if (found === undefined) throw new Error(`No action starting ${prefix}`);
    return found;
  };
  const status = (name: string) => lifecycle.states.find((state) => state === name) ?? name;
  const response = (code: string) => {
    const found = model.responses.find((candidate) => candidate.status === code);
    if (found === undefined) throw new Error(`No response ${code}`);
    return found;
  };
  /** An error code bound to the opening of what the contract says it means. */
  const errorFact = (code: string, index = 0): Fact => {
    const error = response(code).errorCodes[index];
    if (error === undefined) throw new Error(`No error code ${index} of ${code}`);
    return near(200, error.code, opening(error.when));
  };
  const pause = action('pause');
  const cancel = action('cancel');
  const change = action('change_status');
  const paymentFailed = action('payment_failed');
  const resume = action('resume');
  const reactivate = action('reactivate');
  const expire = action('expire');
  const insteadOfResume = model.actions
    .filter((candidate) => candidate.transition.kind === 'fixed' && acceptedStates(candidate.transition).includes(status('pending-cancel')))
    .filter((candidate) => targetOf(candidate.transition).some((state) => targetOf(resume.transition).includes(state)))
    .map((candidate) => candidate.identifier);
  if (insteadOfResume.length === 0) throw new Error(`No action takes a ${status('pending-cancel')} subscription where ${resume.identifier} would`);
  const throttled = actionErrorAnswers(model, pause).throttled;
  const statuses = sampleStatuses(model.responses);
  const samplesOf = (identifier: string) => {
    const chosen = model.actions.find((candidate) => candidate.identifier === identifier);
    if (chosen === undefined) throw new Error(`No action ${identifier} to show the samples of`);
    return codeSamples(endpoint, chosen.requestExample.value, statuses, { envelope: model.envelope, fields: chosen.fields });
  };
  /** A line only this language's sample of the action has. */
  const sampleLine = (identifier: string, language: Parameters<typeof sampleLanguage>[0]) => {
    const samples = samplesOf(identifier);
    const own = samples.find((candidate) => candidate.language === language)?.code ?? '';
    return says(ownLine(own, samples.filter((candidate) => candidate.language !== language).map((candidate) => candidate.code)));
  };
  const statusField = change.transition.kind === 'chosen' ? change.transition.field : '';
  const statusValues = (change.fields.find((field) => field.name === statusField)?.constraints.flatMap((constraint) => constraint.values ?? []) ?? []).map(String);
  const note = model.actions.flatMap((candidate) => candidate.fields).find((field) => field.name === envelope.note);
  const noteLimit = note?.constraints.find((constraint) => constraint.keyword === 'maxLength')?.label ?? '';
  const selectorField = model.actions.flatMap((candidate) => candidate.fields).find((field) => field.name === envelope.selector);
  const subjectType = pause.fields.find((field) => field.name === envelope.subject)?.type ?? '';
  const restRoute = `?rest_route=${endpoint.urlPath.replace(/^\/wp-json/, '')}`;
  const docs = (pagePath: string) => new URL(pagePath, siteConfig.docsUrl).href;
  // What the API does not have (no read, list, events or batch), one section of the endpoint page.
  const notInThisApi = `${docs(endpointPagePath)}#${endpointSections.notInThisApi.slug}`;
  const notPublished = (value: unknown) => (typeof value === 'string' ? value : '');
  const contractProse = [
    endpoint.description,
    lifecycle.description,
    ...model.resultFields.map((field) => field.description),
    ...model.actions.flatMap((candidate) => [candidate.description, ...candidate.fields.map((field) => field.description)]),
  ].join(' ');
  const refusal = refusalDetails(model.responses, lifecycle.states);
  const conflictMembers = response('409').bodyFields.find((field) => field.name === refusal.detailsMember)?.members ?? [];
  const allowedList = conflictMembers.find((member) => member.name === refusal.allowedActions);
  const statusShown = model.resultFields.filter((field) => field.constraints.some((constraint) => constraint.keyword === 'enum' && constraint.values?.every((value) => typeof value === 'string' && lifecycle.states.includes(value))));
  const seconds = (count: number) => `${count} second`;
  const siteVariable = `{${endpoint.variables[0]?.name ?? ''}}`;
  const siteDescription = endpoint.variables[0]?.description ?? '';
  // The success's own words for an action that finds the subscription where it leads.
  const unchangedDescription = model.resultFields.map((field) => field.description).find((description) => /already/.test(description)) ?? '';
  // Lists are read in JSON (the tools' structured answers) and in the reference pages' sentences.
  const acceptedLabels = ['"acceptedFrom":[', 'Accepts a subscription that is'];
  const refusedLabels = ['"refusedFrom":[', 'for a subscription that is'];
  const leadsLabels = ['"leadsTo":[', 'leaves it'];
  const enumLabels = ['"enumValues":[', 'one of'];

  const integrator: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'endpoint-url', question: 'What URL do I send lifecycle requests to?', facts: [says(endpoint.urlTemplate), near(250, siteVariable, quoted(siteDescription, /subdirectory/))] },
    { id: 'endpoint-method', question: 'Which HTTP method does the endpoint take?', facts: [near(5, endpoint.method, endpoint.urlTemplate)] },
    { id: 'key-where', question: 'Where does the API key go in the request?', facts: [near(30, envelope.credential, quoted(endpoint.description, /\bbody\b/))] },
    { id: 'oauth', question: 'Can I use OAuth to authenticate?', facts: [says(quoted(endpoint.description, /no OAuth 2\.0 flow/))] },
    { id: 'authorization-header', question: 'Do I send the key in an Authorization header?', facts: [says(quoted(endpoint.description, /There is no `?Authorization`? header/))] },
    // A list of the actions may say what each does and where it leads (the home page's does), so
    // no status is ruled out of it; the label is what binds it to the actions.
    { id: 'actions', question: 'Which lifecycle actions does the API have?', facts: [listed(enumLabels, model.actions.map((candidate) => candidate.identifier), [])] },
    { id: 'selector', question: 'Which body field selects the action?', facts: [near(120, `${envelope.selector}`, opening(selectorField?.description ?? ''))] },
    { id: 'change-status-fields', question: `What fields does ${change.identifier} need?`, facts: change.fields.filter((field) => field.required).map((field) => near(60, field.name, field.type, 'required')) },
    { id: 'change-status-values', question: `Which statuses can ${change.identifier} set?`, facts: [listed(enumLabels, statusValues, lifecycle.states.filter((state) => !statusValues.includes(state)))] },
    { id: 'note-limit', question: 'How long may the note field be?', facts: [near(400, envelope.note ?? '', noteLimit)] },
    { id: 'subject-type', question: `What type is ${envelope.subject}?`, facts: [near(40, envelope.subject, subjectType)] },
    ...model.actions.map((candidate) => ({
      id: `accepts-${candidate.identifier}`,
      question: `From which statuses can I call ${candidate.identifier}?`,
      facts: [listed(acceptedLabels, acceptedStates(candidate.transition), refusedStates(lifecycle, candidate.transition))],
    })),
    {
      id: 'cancelled-actions',
      question: `Which actions can I run on a ${status('cancelled')} subscription?`,
      facts: [near(400, `"status":"${status('cancelled')}"`, ...allowedActions(lifecycle, status('cancelled')).map((name) => `"action":"${name}"`))],
    },
    { id: 'final-states', question: 'Which statuses are final, with no way out?', facts: lifecycle.finalStates.map((state) => near(300, quoted(contractProse, /no action leads out/), state)) },
    { id: 'pause-refused', question: `Which statuses does ${pause.identifier} refuse?`, facts: [listed(refusedLabels, refusedStates(lifecycle, pause.transition), acceptedStates(pause.transition))] },
    { id: 'refused-code', question: `What error do I get when an action is not allowed from the subscription's status?`, facts: [errorFact('409')] },
    { id: 'wrong-key', question: 'What does the API answer when the API key is wrong?', facts: [errorFact('401')] },
    { id: 'not-found', question: 'What happens if the subscription id does not exist?', facts: [errorFact('404')] },
    { id: 'missing-field', question: 'What error do I get when a required field is missing?', facts: [errorFact('400', 1)] },
    { id: 'invalid-json', question: 'What does the endpoint answer to a body that is not valid JSON?', facts: [errorFact('400', 0)] },
    { id: 'on-429', question: 'What happens on a 429?', facts: [says(quoted(response('429').description, /The service itself never throttles/)), says(quoted(response('429').description, /the request was not processed/))] },
    { id: 'retry-after-date', question: 'Can Retry-After be an HTTP date instead of seconds?', facts: [near(300, throttled.header, throttled.examples.find((example) => !/^\d+$/.test(example)) ?? '')] },
    { id: 'retry-after-cap', question: 'How long should I wait at most when Retry-After is very long?', facts: [near(60, 'Retry-After', seconds(retryPolicy.retryAfterCapSeconds))] },
    { id: 'timeouts', question: 'What timeouts should my client use?', facts: [near(20, seconds(retryPolicy.connectTimeoutSeconds), 'connect'), near(40, seconds(retryPolicy.attemptTimeoutSeconds), 'attempt')] },
    { id: 'transient', question: 'Which host answers besides 429 should I retry?', facts: [says(listInWords(retryPolicy.transientHostStatuses.map(String), 'and'))] },
    { id: 'pace', question: 'How many requests per second may I send to a site?', facts: [near(40, `${countInWords(1 / retryPolicy.courtesyIntervalSeconds)} request`, 'per second')] },
    { id: 'repeat', question: `What happens if I send ${pause.identifier} twice?`, facts: [near(20, quoted(unchangedDescription, /already/), ...targetOf(pause.transition))] },
    { id: 'curl-pause', question: `Give me a curl example for ${pause.identifier}`, facts: [sampleLine(pause.identifier, 'curl'), says(`"${envelope.selector}": "${pause.identifier}"`)] },
    { id: 'python-cancel', question: `Show me Python code to call ${cancel.identifier}`, facts: [sampleLine(cancel.identifier, 'python'), says(`"${envelope.selector}": "${cancel.identifier}"`)] },
    { id: 'php-library-resume', question: `Show me php-library code for ${resume.identifier}`, facts: [sampleLine(resume.identifier, 'php-library'), says(`$client->${clientMethodName(resume.identifier)}(`)] },
    { id: 'typescript-library-pause', question: `Give me a typescript-library example for ${pause.identifier}`, facts: [sampleLine(pause.identifier, 'typescript-library'), says(`client.${clientMethodName(pause.identifier)}(`)] },
    { id: 'retrying-languages', question: 'In which languages is there a retrying client?', facts: retryingClientLanguages.map((language) => says(sampleLanguage(language).label)) },
    { id: 'version', question: 'Which API version is current, and where does it appear?', facts: [near(30, endpoint.versionSegment, 'current'), says(endpoint.versionNamespace)] },
    { id: 'additive', question: 'Will a new release of v1 break my client?', facts: [says(quoted(endpoint.description, /a later release of version 1 may add fields/).replace(/^a later release of version 1 /, ''))] },
    {
      id: 'status-read',
      question: 'How do I get the status of a subscription?',
      facts: [near(300, `${refusal.detailsMember}.${refusal.currentStatus}`, ...statusShown.map((field) => field.name))],
    },
    { id: 'list-subscriptions', question: 'Can I list all subscriptions through the API?', facts: [says(notInThisApi)] },
    // Everyday words and noun forms, not the contract's identifiers.
    {
      id: 'resume-pending-cancel',
      question: `Can I resume a ${status('pending-cancel')} subscription?`,
      facts: [
        near(400, `"status":"${status('pending-cancel')}"`, `"refused":[`, `"${resume.identifier}"`),
        listed(refusedLabels, refusedStates(lifecycle, resume.transition), acceptedStates(resume.transition)),
        // The actions that take it where resuming would.
        near(400, `"status":"${status('pending-cancel')}"`, ...insteadOfResume.map((name) => `"action":"${name}"`)),
      ],
    },
    { id: 'expiration', question: 'What happens on expiration?', facts: targetOf(expire.transition).map((state) => near(300, quoted(expire.description, /no action leads out/), state)) },
    { id: 'reactivation', question: 'reactivation', facts: [listed(acceptedLabels, acceptedStates(reactivate.transition), refusedStates(lifecycle, reactivate.transition))] },
    { id: 'undo-cancellation', question: 'How do I undo a cancellation?', facts: [listed(acceptedLabels, acceptedStates(reactivate.transition), refusedStates(lifecycle, reactivate.transition))] },
    { id: 'several-actions', question: 'Can I send several actions in one request?', facts: [says(notInThisApi)] },
    { id: 'cancel-many', question: 'Can I cancel multiple subscriptions at once?', facts: [says(notInThisApi)] },
    { id: 'bulk-cancel', question: 'bulk cancel subscriptions', facts: [says(notInThisApi)] },
    {
      id: 'conflict-body',
      question: 'What does the 409 body contain?',
      facts: [near(1500, response('409').errorCodes[0]?.code ?? '', ...conflictMembers.map((member) => member.name))],
    },
    { id: 'allowed-order', question: `What does ${refusal.allowedActions} list and in which order?`, facts: [near(400, refusal.allowedActions, quoted(allowedList?.description ?? '', /in the order of the request body's actions/))] },
  ];
  const maintainer: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'plain-permalinks', question: 'The shop has no pretty permalinks: where does the endpoint answer?', facts: [says(restRoute)] },
    { id: 'subdirectory', question: 'WordPress lives in a subdirectory: what is {site}?', facts: [says(quoted(endpoint.variables[0]?.description ?? '', /the path when WordPress lives in a subdirectory/))] },
    { id: 'fields-before-key', question: 'Which is checked first, the fields or the key?', facts: [says(quoted(endpoint.description, /Fields are checked before the key/))] },
    { id: 'number-as-string', question: 'Is a subscription id sent as a string accepted?', facts: [says(quoted(endpoint.description, /A number written as a string passes an integer field/))] },
    { id: 'payment-failed', question: `What does ${paymentFailed.identifier} do to the subscription?`, facts: [listed(leadsLabels, targetOf(paymentFailed.transition), lifecycle.states.filter((state) => !targetOf(paymentFailed.transition).includes(state)))] },
    { id: 'unknown-field', question: 'What happens when a request carries a field the action does not know?', facts: [near(40, '400', response('400').errorCodes[2]?.code ?? ''), says(quoted(endpoint.description, /the chosen action does not know/))] },
    { id: 'server-error', question: 'What does a 500 from the service look like?', facts: [errorFact('500')] },
  ];
  // The client libraries, the workflows and the conformance suite: questions that name a page by its title.
  const conflictStatus = response('409').status;
  const libraries: Omit<EvaluationQuestion, 'audience'>[] = [
    {
      id: 'typescript-refused-error',
      question: "With the TypeScript client, which error is thrown when the subscription's status refuses the action?",
      facts: [near(400, errorClassName(Number(conflictStatus)), camelCaseName(refusal.allowedActions))],
    },
    {
      id: 'php-refused-exception',
      question: "What does the PHP library throw when the subscription's status refuses the action?",
      facts: [near(400, exceptionClassName(conflictStatus), `${detailGetterName(refusal.currentStatus)}(`)],
    },
    {
      id: 'php-409',
      question: `With the PHP library, how do I handle a ${conflictStatus}?`,
      facts: [near(400, exceptionClassName(conflictStatus), `${detailGetterName(refusal.allowedActions)}(`)],
    },
    {
      id: 'typescript-pause-refused',
      question: `With the TypeScript client, how do I tell why ${pause.identifier} was refused?`,
      facts: [near(400, errorClassName(Number(conflictStatus)), camelCaseName(refusal.currentStatus))],
    },
    { id: 'typescript-pace', question: 'How often does the TypeScript client send requests to one site?', facts: [near(40, 'every', `${retryPolicy.courtesyIntervalSeconds * 1000} ms`)] },
    {
      id: 'php-throttled-attempts',
      question: 'How many attempts does the PHP library make when the host throttles it?',
      facts: [near(120, `${countInWords(retryPolicy.maxAttempts)} attempts`, seconds(retryPolicy.retryAfterCapSeconds))],
    },
    {
      id: 'workflows-throttled',
      question: 'How do the lifecycle workflows handle a throttled request?',
      facts: [near(80, seconds(throttleRetry.retryAfter), `${countInWords(throttleRetry.retryLimit)} times`)],
    },
    { id: 'conformance-key-refused', question: 'Which exit code does the conformance suite give when the key is refused?', facts: [near(20, String(exitCodes.keyRefused), exitCodeMeanings.keyRefused)] },
    { id: 'conformance-unreached', question: `What does exit code ${exitCodes.unreached} of the conformance suite mean?`, facts: [near(20, String(exitCodes.unreached), exitCodeMeanings.unreached.replace(/ \(.*$/, ''))] },
  ];
  const agentBuilder: Omit<EvaluationQuestion, 'audience'>[] = [
    { id: 'mcp-url', question: 'Where is the product-information MCP server?', facts: [says(siteConfig.mcpUrl)] },
    { id: 'server-card', question: 'Where is the MCP server card?', facts: [says(serverCardPath)] },
    { id: 'mcp-tools', question: 'Which tools does the product-information server have?', facts: Object.keys(toolCatalogue).map(says) },
    { id: 'openapi', question: 'Where can I download the OpenAPI document?', facts: [says(docs(openApiJsonPath))] },
    { id: 'llms-txt', question: 'Is there an llms.txt?', facts: [says(llmsTxtPath.replace(/^\//, ''))] },
    { id: 'mcp-protocol-versions', question: 'Which MCP protocol versions does the server support?', facts: server.supportedProtocolVersions.map(says) },
    { id: 'editions', question: 'What is the difference between the free and the paid edition?', facts: [says(facts.editions.free.name), says(facts.editions.paid.name)] },
    { id: 'free-version', question: 'Is there a free version?', facts: [near(200, facts.editions.free.name, docs('/product/'))] },
    { id: 'pricing', question: 'How much does the paid edition cost?', facts: [near(60, 'pricing', notPublished(facts.pricing) || (typeof facts.pricing === 'string' ? '' : (facts.pricing[0]?.price ?? '')))] },
    { id: 'gateways', question: 'Which payment gateways are supported?', facts: [near(60, 'gateway', notPublished(facts.paymentGateways) || (typeof facts.paymentGateways === 'string' ? '' : facts.paymentGateways.join(', ')))] },
  ];
  const questions = [
    ...integrator.map((entry) => ({ ...entry, audience: 'integrator' as const })),
    ...maintainer.map((entry) => ({ ...entry, audience: 'plugin maintainer' as const })),
    ...libraries.map((entry) => ({ ...entry, audience: entry.id.startsWith('conformance') ? ('plugin maintainer' as const) : ('integrator' as const) })),
    ...agentBuilder.map((entry) => ({ ...entry, audience: 'agent builder' as const })),
  ];
  // A question without facts would count as right whatever the answers say.
  for (const question of questions) {
    const empty = question.facts.length === 0 || question.facts.some((fact) => (fact.kind === 'says' ? [fact.text] : fact.kind === 'near' ? fact.terms : fact.items).some((term) => term.trim() === ''));
    if (empty) throw new Error(`Question ${question.id} has no fact to check`);
  }
  return questions;
}

/** Where an action with a fixed target leads; the targets of one whose target is chosen. */
function targetOf(transition: ReferenceModel['actions'][number]['transition']): string[] {
  return transition.kind === 'fixed' ? [transition.to] : transition.moves.flatMap((move) => move.to).filter((state, index, all) => all.indexOf(state) === index);
}
