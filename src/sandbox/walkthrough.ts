import type { Answer } from './answer.ts';
import { curlSample } from '../lib/samples/action-sample/curl.ts';
import { oncePerBundle, type OpenApiDocument } from '../lib/contract/document.ts';
import { readExecutableContract } from '../lib/contract/executable-contract.ts';
import { acceptedStates } from '../lib/contract/lifecycle.ts';
import { quickstartExamples } from '../lib/contract/facts.ts';
import { jsonMediaType } from '../lib/contract/request-body.ts';
import { errorDataField } from '../lib/contract/response-names.ts';
import { contractError } from '../lib/contract/schemas.ts';
import { bodyLimitBytes, defaultRetryAfterSeconds, hostErrorHeader, hostErrorStatuses, throttleHeader } from './host.ts';
import { utf8Bytes } from './bytes.ts';
import { defaultApiKey, sandboxSeed } from './seed.ts';
import { answerRequest } from './answer-request.ts';
import { defaultPort } from './server.ts';
import type { Subscription } from './store.ts';
import { openStore } from './store.ts';

/** One request of the guide: the command a reader types and the answer the sandbox gives to it. */
export interface WalkthroughStep {
  command: string;
  request: Record<string, unknown>;
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or the text of an HTML one. */
  body: unknown;
}

/** What the guide "Try it against the sandbox" shows, every value taken from the sandbox itself. */
export interface SandboxWalkthrough {
  baseUrl: string;
  endpointUrl: string;
  apiKey: string;
  port: number;
  subscriptions: Subscription[];
  /** A seed file's content, as short as shows its shape. */
  seedExample: string;
  throttleHeader: string;
  throttleSeconds: string;
  /** The Retry-After `--throttle-next` answers carry unless `--retry-after` says another. */
  defaultRetryAfterSeconds: number;
  hostErrorHeader: string;
  hostErrorStatuses: readonly number[];
  bodyLimitMiB: number;
  /** The answer, as "status code", to a request wrong both in a field's type and in its key. */
  fieldsAndKeyWrongAnswer: string;
  /** The answer, as "status code", to a JSON body sent as `text/plain`, as a form, or with no media type. */
  bodyNotJsonAnswer: string;
  /** Where each member the guide names sits in an answer's body. */
  members: Record<'changed' | 'previousStatus' | 'status' | 'currentStatus' | 'allowedActions', string[]>;
  success: WalkthroughStep;
  repeat: WalkthroughStep;
  conflict: WalkthroughStep;
  throttled: WalkthroughStep;
}

function stepOf(command: string, request: Record<string, unknown>, answer: Answer): WalkthroughStep {
  const isJson = answer.headers['content-type']?.startsWith(jsonMediaType) === true;
  return { command, request, status: answer.status, headers: answer.headers, body: isJson ? (JSON.parse(answer.body) as unknown) : answer.body };
}

/**
 * Runs the guide's requests through the sandbox's own stages, in process, on a fresh database
 * with the default seed: the guide shows exactly what `npm run sandbox` answers.
 */
export function readWalkthrough(document: OpenApiDocument): SandboxWalkthrough {
  const contract = readExecutableContract(document);
  const { model } = contract;
  const store = openStore(':memory:', model.lifecycle.states);
  try {
    const subscriptions = store.addMissing(sandboxSeed(contract));
    const baseUrl = `http://127.0.0.1:${defaultPort}`;
    const endpoint = { ...model.endpoint, exampleUrl: `${baseUrl}${model.endpoint.urlPath}` };
    const { envelope } = model;
    const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      answerRequest(contract, store, { apiKey: defaultApiKey, basePath: '' }, {
        method: model.endpoint.method,
        target: model.endpoint.urlPath,
        // The Host curl sends to the sandbox, which core's Link header names.
        headers: { host: new URL(baseUrl).host, 'content-type': jsonMediaType, ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])) },
        body: utf8Bytes(JSON.stringify(body)),
        tooLarge: false,
      });
    const withSubscription = (example: Record<string, unknown>, id: number) => ({ ...example, [envelope.credential]: defaultApiKey, [envelope.subject]: id });

    // The quickstart's action, on the seeded subscription in the first status it accepts; then again.
    const quickstart = quickstartExamples(model).request;
    const quickAction = model.actions.find((action) => action.identifier === quickstart[envelope.selector]);
    const from = quickAction === undefined ? undefined : acceptedStates(quickAction.transition)[0];
    const target = subscriptions.find((subscription) => subscription.status === from) ?? subscriptions[0];
    if (quickAction === undefined || target === undefined) throw new Error('the quickstart action or the seed is missing');
    const successRequest = withSubscription(quickstart, target.id);
    const success = stepOf(curlSample(endpoint, successRequest), successRequest, send(successRequest));
    const repeat = stepOf(curlSample(endpoint, successRequest), successRequest, send(successRequest));

    // The same action on a subscription in a status it refuses: the 409 the document's examples show,
    // from a status that is not final where the action refuses one (its list of allowed actions is not empty).
    const refused = subscriptions.filter((subscription) => quickAction.refusedStates.includes(subscription.status));
    const refusedFrom = refused.find((subscription) => !model.lifecycle.finalStates.includes(subscription.status)) ?? refused[0];
    if (refusedFrom === undefined) throw contractError(quickAction.pointer, `no seeded subscription is in a status ${quickAction.identifier} refuses`);
    const conflictRequest = withSubscription(quickstart, refusedFrom.id);
    const conflict = stepOf(curlSample(endpoint, conflictRequest), conflictRequest, send(conflictRequest));

    // The document's own example of a delay in seconds.
    const secondsExample = contract.throttled.headers.find((header) => header.name === contract.retryAfterHeader)?.examples.find((example) => typeof example.value === 'number');
    if (secondsExample === undefined) throw new Error(`the ${contract.retryAfterHeader} header has no example in seconds`);
    const throttleSeconds = String(secondsExample.value);
    const plainCommand = curlSample(endpoint, successRequest);
    const throttledCommand = plainCommand.replace(/^( *--request .*\n)/m, `$1  --header '${throttleHeader}: ${throttleSeconds}' \\\n`);
    if (throttledCommand === plainCommand) throw new Error('the curl sample has no --request line to add the header after');
    const throttled = stepOf(throttledCommand, successRequest, send(successRequest, { [throttleHeader]: throttleSeconds }));

    // The order of the checks and the media types, answered by the sandbox itself rather than described.
    const codeOf = (answer: Answer) => `${answer.status} ${(JSON.parse(answer.body) as { code?: unknown }).code}`;
    const [anyAction] = model.actions;
    if (anyAction === undefined) throw new Error('the document has no action');
    const fieldsAndKeyWrongAnswer = codeOf(send({ [envelope.credential]: `${defaultApiKey}-wrong`, [envelope.selector]: anyAction.identifier, [envelope.subject]: 'abc' }));
    const validText = JSON.stringify({ [envelope.credential]: defaultApiKey, [envelope.selector]: anyAction.identifier, [envelope.subject]: target.id });
    const notJsonAnswers = new Set(
      [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}].map((headers) =>
        codeOf(answerRequest(contract, store, { apiKey: defaultApiKey, basePath: '' }, { method: model.endpoint.method, target: model.endpoint.urlPath, headers, body: utf8Bytes(validText), tooLarge: false })),
      ),
    );
    const [bodyNotJsonAnswer] = notJsonAnswers;
    if (bodyNotJsonAnswer === undefined || notJsonAnswers.size !== 1) throw new Error(`a body not sent as JSON gets different answers: ${[...notJsonAnswers].join(', ')}`);

    return {
      baseUrl,
      endpointUrl: endpoint.exampleUrl,
      apiKey: defaultApiKey,
      port: defaultPort,
      subscriptions,
      seedExample: JSON.stringify(subscriptions.slice(0, 2)).replaceAll(',"', ', "').replaceAll('":', '": ').replaceAll('},{', '}, {'),
      throttleHeader,
      throttleSeconds,
      defaultRetryAfterSeconds,
      hostErrorHeader,
      hostErrorStatuses,
      bodyLimitMiB: bodyLimitBytes / 1024 / 1024,
      fieldsAndKeyWrongAnswer,
      bodyNotJsonAnswer,
      members: {
        changed: [contract.result.changed],
        previousStatus: [contract.result.previousStatus],
        status: [contract.result.status],
        currentStatus: [errorDataField, contract.errors.currentStatusMember],
        allowedActions: [errorDataField, contract.errors.allowedActionsMember],
      },
      success,
      repeat,
      conflict,
      throttled,
    };
  } finally {
    store.close();
  }
}

/** The walkthrough of the document the build bundled, worked out once per bundle. */
export const loadWalkthrough = oncePerBundle(readWalkthrough);
