import { isJson, parsedCode, revealedStatus, unreadableStatus } from './answer-reading.ts';
import type { Exchange } from './client.ts';
import { defaultMaxRetryAfterSeconds, joinUrl } from './client.ts';
import type { SetupFailure } from './results.ts';
import type { RunState } from './run-state.ts';
import { probeRequest } from './run-state.ts';
import { connectionAdvice, hostRefusal } from './setup-messages.ts';
import { answerSummary } from './shown-text.ts';

/** Reads a subscription's status again, with the request that changes none (after a move went wrong). */
export async function learnStatus(state: RunState, id: number): Promise<string | undefined> {
  const request = probeRequest(state, id);
  if (request === undefined) return undefined;
  const exchange = await state.send(request);
  state.setupRequests += 1;
  const status = revealedStatus(state.contract, exchange.answer);
  state.known.set(id, status);
  return status;
}

/**
 * Reads where each named subscription stands, with the request that changes none, and tells a
 * set-up that cannot work (no connection, no WordPress, a refused key, an unknown subscription)
 * from a deployment that answers off the document.
 */
export async function placeSubscriptions(state: RunState): Promise<SetupFailure | undefined> {
  const { contract, apiKey, probe } = state;
  const { errors } = contract;
  const unknown: number[] = [];
  const offDocument: { id: number; got: string }[] = [];
  for (const [index, id] of state.subscriptions.entries()) {
    const request = probeRequest(state, id);
    if (request === undefined) {
      state.fatal.push('the document has no request that reads a status without changing it, so the suite cannot place the subscriptions');
      return undefined;
    }
    const exchange = await state.send(request);
    state.setupRequests += 1;
    const status = revealedStatus(contract, exchange.answer);
    state.known.set(id, status);
    if (status !== undefined) continue;
    const { answer } = exchange;
    if (answer === undefined && exchange.unreadableStatus !== undefined) {
      // An answer came: the host is reached, but what answers is not WordPress's endpoint.
      return {
        kind: 'not-wordpress',
        message: `${exchange.url} answered ${exchange.unreadableStatus}, but not as WordPress's REST API does: ${exchange.failure ?? 'the answer could not be read'}. Check that --base-url names the WordPress site and that the plugin answers there. No case was run.`,
      };
    }
    if (answer === undefined) {
      const host = new URL(state.baseUrl).host;
      return {
        kind: 'cannot-connect',
        message: `Cannot connect to ${host}: ${exchange.failure ?? 'no answer'}. ${connectionAdvice[exchange.failureKind ?? 'connection failed']} No case was run.`,
      };
    }
    const code = parsedCode(answer);
    const refusal = index === 0 && !isJson(answer) ? hostRefusal(exchange, Number(contract.throttled.status), state.maxRetryAfterSeconds ?? defaultMaxRetryAfterSeconds, apiKey) : undefined;
    if (refusal !== undefined) return { kind: 'host-refused', message: refusal };
    if (index === 0 && (!isJson(answer) || code === errors.noRoute.code)) {
      return { kind: 'not-wordpress', message: await notWordPressMessage(state, exchange) };
    }
    if (answer.status === errors.invalidKey.status && code === errors.invalidKey.code) {
      return {
        kind: 'key-refused',
        message: `The site refused the API key: a request that is valid in every field (${probe?.action.identifier ?? 'the probe'} for subscription ${id}) was answered ${answer.status} ${code}. Check --api-key against the key in the plugin's settings on this site (it changes when it is regenerated), and that --base-url names the site the key belongs to. No case was run.`,
      };
    }
    if (answer.status === errors.subscriptionNotFound.status && code === errors.subscriptionNotFound.code) {
      unknown.push(id);
      continue;
    }
    offDocument.push({ id, got: `${answerSummary(exchange, apiKey)}${unreadableStatus(contract, answer)}` });
  }
  if (unknown.length > 0) {
    const list = unknown.join(', ');
    return {
      kind: 'unknown-subscription',
      message: `The site has no subscription ${list}: it answered ${errors.subscriptionNotFound.status} ${errors.subscriptionNotFound.code}${unknown.length < state.subscriptions.length ? ' (the other named subscriptions exist)' : ''}. Name with --subscription the IDs of test subscriptions as the site's administration shows them. No case was run.`,
    };
  }
  if (offDocument.length > 0) return offDocumentAtSetup(state, offDocument);
  return undefined;
}

/**
 * The run's one finding when the request that only reads a status is answered off the document:
 * the suite cannot tell where the subscriptions stand, so no case can run, and the answer is what
 * to fix, not the named subscriptions.
 */
function offDocumentAtSetup(state: RunState, offDocument: readonly { id: number; got: string }[]): SetupFailure {
  const [first] = offDocument;
  const others = offDocument.slice(1).map(({ id }) => id);
  const read = state.subscriptions.length - offDocument.length;
  const probe = `${state.probe?.action.identifier ?? 'the probe'} to ${state.probe?.status ?? '?'}`;
  const spread = [
    ...(others.length === 0 ? [] : [`so did subscription${others.length === 1 ? '' : 's'} ${others.join(', ')}`]),
    ...(read === 0 ? [] : [`the other ${read} named subscription${read === 1 ? ' was' : 's were'} read`]),
  ];
  return {
    kind: 'off-document-at-setup',
    message: `The site answered the request that only reads where a subscription stands off the document: subscription ${first?.id ?? ''} (${probe}, a request that changes no subscription) got ${first?.got ?? ''}${spread.length === 0 ? '' : ` (${spread.join('; ')})`}. This is the run's one finding: the suite reads each subscription's status from that answer before the first case, so without it no case could run. Make the plugin answer that request as the document says and run the suite again; the named subscriptions were not changed, and naming others would not help.`,
  };
}

/** Why the first answer is not the endpoint's: no WordPress REST API at all, or one without the plugin's route. */
async function notWordPressMessage(state: RunState, exchange: Exchange): Promise<string> {
  const { contract, apiKey, baseUrl } = state;
  const restRoot = `/${contract.model.endpoint.urlPath.split('/')[1] ?? ''}/`;
  const index = await state.send({ method: 'GET', path: restRoot, headers: {} });
  state.setupRequests += 1;
  const restApi = index.answer !== undefined && index.answer.status === 200 && isJson(index.answer);
  const got = answerSummary(exchange, apiKey);
  return restApi
    ? `The site has a WordPress REST API at ${joinUrl(baseUrl, restRoot)}, but not the endpoint: ${exchange.url} answered ${got}. Activate the plugin on this site, or, if WordPress lives in a subdirectory, include it in --base-url. No case was run.`
    : `${baseUrl} does not answer as a WordPress REST API: ${exchange.url} answered ${got}, and ${joinUrl(baseUrl, restRoot)} gave no JSON index (${answerSummary(index, apiKey)}). Check --base-url: it is the site's address, with the subdirectory WordPress is installed in, if any; a site without pretty permalinks is not supported by the suite. No case was run.`;
}
